/// Reads RIFF WAVE files: the fmt and data chunks for the duration, LIST/INFO text, and an
/// embedded "id3 " chunk (which wins over INFO, being the richer tag).
enum WAVReader {
    static func read(_ source: some ByteSource) throws(MediaFormatError) -> AudioMetadata {
        let header = try source.readExactly(at: 0, count: 12, what: "RIFF header")
        guard header[0..<4].elementsEqual("RIFF".utf8), header[8..<12].elementsEqual("WAVE".utf8) else {
            throw MediaFormatError(.unsupported, at: 0, "not a RIFF WAVE file")
        }
        var meta = AudioMetadata(format: .wav)
        var info = AudioMetadata(format: .wav)
        var byteRate = 0
        var dataSize: Int?
        var offset = 12
        while offset + 8 <= source.size {
            let chunkHeader = try source.readExactly(at: offset, count: 8, what: "RIFF chunk header")
            let id = latin1String(chunkHeader[0..<4])
            let size = Int(Bytes.u32le(chunkHeader[...], 4))
            let body = offset + 8
            let available = source.size - body
            switch id {
            case "fmt ":
                let fmt = try source.readExactly(at: body, count: min(size, 16), what: "fmt chunk")
                guard fmt.count >= 16 else { throw MediaFormatError(.truncated, at: body, "fmt chunk shorter than 16 bytes") }
                meta.channels = Int(UInt16(fmt[3]) << 8 | UInt16(fmt[2]))
                meta.sampleRate = Int(Bytes.u32le(fmt[...], 4))
                byteRate = Int(Bytes.u32le(fmt[...], 8))
                meta.bitrate = byteRate * 8
            case "data":
                // Streaming writers leave the size 0 or 0xFFFFFFFF: use what the file holds.
                dataSize = size == 0 || size > available ? available : size
            case "LIST":
                let list = try source.readExactly(at: body, count: size, what: "LIST chunk")
                if list.count >= 4, list[0..<4].elementsEqual("INFO".utf8) { try readInfo(list[4...], base: body + 4, into: &info) }
            case "id3 ", "ID3 ":
                let bytes = try source.readExactly(at: body, count: size, what: "id3 chunk")
                ID3v2Metadata.apply(try ID3v2Tag(bytes: bytes, fileOffset: body), to: &meta)
            default: break
            }
            guard size <= available || id == "data" else {
                throw MediaFormatError(.truncated, at: offset, "chunk '\(id)' declares \(size) bytes, \(available) remain")
            }
            offset = body + size + (size & 1)  // chunks are padded to even sizes
        }
        meta.fillGaps(from: info)
        guard byteRate > 0 else { throw MediaFormatError(.malformed, at: 12, "WAVE file has no valid fmt chunk") }
        if let dataSize { meta.duration = Double(dataSize) / Double(byteRate) }
        return meta
    }

    static func readInfo(_ bytes: ArraySlice<UInt8>, base: Int, into meta: inout AudioMetadata) throws(MediaFormatError) {
        var i = bytes.startIndex
        while i + 8 <= bytes.endIndex {
            let id = latin1String(bytes[i..<i + 4])
            let size = Int(Bytes.u32le(bytes, i + 4))
            guard size <= bytes.endIndex - (i + 8) else {
                throw MediaFormatError(.truncated, at: base + (i - bytes.startIndex), "INFO item '\(id)' overruns its list")
            }
            let raw = bytes[(i + 8)..<(i + 8 + size)]
            let cut = raw.firstIndex(of: 0).map { raw[raw.startIndex..<$0] } ?? raw
            // INFO text is nominally Latin-1 but modern writers use UTF-8; prefer UTF-8 when valid.
            let value = (String(validatingUTF8Bytes: cut) ?? TextEncoding.latin1.decode(cut)).nonBlank
            switch id {
            case "INAM": meta.title = value
            case "IART": meta.artist = value
            case "IPRD": meta.album = value
            case "IGNR": meta.genre = value
            case "ICRD": meta.year = parseYear(value)
            case "ITRK", "IPRT", "TRCK": meta.trackNumber = parseNumberPair(value).0
            case "IMUS", "ICMP", "ICOM": meta.composer = value
            case "ISRC" where value?.count == 12: meta.isrc = value
            default: break
            }
            i += 8 + size + (size & 1)
        }
    }
}

extension String {
    /// The text if `bytes` are valid UTF-8, else nil.
    init?(validatingUTF8Bytes bytes: ArraySlice<UInt8>) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var scalars = String.UnicodeScalarView()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): scalars.append(s)
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        self = String(scalars)
    }
}
