/// Reads ASF files (WMA, older Windows rips): the Header Object's File Properties (the play
/// duration less the preroll), the audio Stream Properties (WAVEFORMATEX: channels, rate,
/// bit rate), the Content Description (title, author) and the Extended Content Description
/// with its WM/ attributes, also where the Header Extension's Metadata Library holds them.
/// GUIDs and numbers little-endian; text UTF-16LE.
enum ASFReader {
    static let header: [UInt8] = [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C]
    static let fileProperties: [UInt8] = [0xA1, 0xDC, 0xAB, 0x8C, 0x47, 0xA9, 0xCF, 0x11, 0x8E, 0xE4, 0x00, 0xC0, 0x0C, 0x20, 0x53, 0x65]
    static let streamProperties: [UInt8] = [0x91, 0x07, 0xDC, 0xB7, 0xB7, 0xA9, 0xCF, 0x11, 0x8E, 0xE6, 0x00, 0xC0, 0x0C, 0x20, 0x53, 0x65]
    static let audioStream: [UInt8] = [0x40, 0x9E, 0x69, 0xF8, 0x4D, 0x5B, 0xCF, 0x11, 0xA8, 0xFD, 0x00, 0x80, 0x5F, 0x5C, 0x44, 0x2B]
    static let contentDescription: [UInt8] = [0x33, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C]
    static let extendedContent: [UInt8] = [0x40, 0xA4, 0xD0, 0xD2, 0x07, 0xE3, 0xD2, 0x11, 0x97, 0xF0, 0x00, 0xA0, 0xC9, 0x5E, 0xA8, 0x50]
    static let headerExtension: [UInt8] = [0xB5, 0x03, 0xBF, 0x5F, 0x2E, 0xA9, 0xCF, 0x11, 0x8E, 0xE3, 0x00, 0xC0, 0x0C, 0x20, 0x53, 0x65]
    static let metadata: [UInt8] = [0xEA, 0xCB, 0xF8, 0xC5, 0xAF, 0x5B, 0x77, 0x48, 0x84, 0x67, 0xAA, 0x8C, 0x44, 0xFA, 0x4C, 0xCA]
    static let metadataLibrary: [UInt8] = [0x94, 0x1C, 0x23, 0x44, 0x98, 0x94, 0xD1, 0x49, 0xA1, 0x41, 0x1D, 0x13, 0x4E, 0x45, 0x70, 0x54]

    /// The header may hold large pictures; more than this is not a header Juke reads.
    static let maxHeader = 64 << 20

    static func isASF(_ head: [UInt8]) -> Bool { head.count >= 16 && Array(head[0..<16]) == header }

    static func read(_ source: some ByteSource) throws(MediaFormatError) -> AudioMetadata {
        let top = try source.readExactly(at: 0, count: 30, what: "ASF header object")
        guard Array(top[0..<16]) == header else { throw MediaFormatError(.unsupported, at: 0, "not an ASF file") }
        let declared = Int(clamping: u64(top[...], 16))
        let size = min(declared, source.size, maxHeader)
        guard size >= 30 else { throw MediaFormatError(.malformed, at: 16, "ASF header object of \(declared) bytes") }
        let bytes = try source.readExactly(at: 0, count: size, what: "ASF header object")
        var meta = AudioMetadata(format: .asf)
        var attributes: [(String, Value)] = []
        var sawFile = false
        try objects(in: bytes[30...], base: 30) { (guid: [UInt8], body: ArraySlice<UInt8>, at: Int) throws(MediaFormatError) in
            switch guid {
            case fileProperties:
                guard body.count >= 80 else { throw MediaFormatError(.truncated, at: at, "File Properties object shorter than 80 bytes") }
                let duration = Double(u64(body, 40)) / 10_000_000 - Double(u64(body, 56)) / 1000
                if duration > 0 { meta.duration = duration }
                let bitrate = Int(Bytes.u32le(body, body.startIndex + 76))
                if bitrate > 0 { meta.bitrate = bitrate }
                sawFile = true
            case streamProperties:
                guard body.count >= 54 + 16, Array(body[body.startIndex..<(body.startIndex + 16)]) == audioStream else { break }
                let format = body.dropFirst(54)
                meta.channels = Int(u16(format, 2))
                meta.sampleRate = Int(Bytes.u32le(format, format.startIndex + 4))
                if meta.bitrate == nil { meta.bitrate = Int(Bytes.u32le(format, format.startIndex + 8)) * 8 }
            case contentDescription:
                guard body.count >= 10 else { break }
                let lengths = (0..<5).map { Int(u16(body, $0 * 2)) }
                var p = body.startIndex + 10
                var texts: [String] = []
                for length in lengths {
                    guard p + length <= body.endIndex else { break }
                    texts.append(text(body[p..<(p + length)]))
                    p += length
                }
                if texts.count > 0 { attributes.append(("Title", .text(texts[0]))) }
                if texts.count > 1 { attributes.append(("Author", .text(texts[1]))) }
            case extendedContent:
                attributes += extendedAttributes(body)
            case headerExtension:
                // 22 bytes of reserved fields and a data size, then objects of its own.
                guard body.count >= 22 else { break }
                try objects(in: body.dropFirst(22), base: at + 22) { (guid: [UInt8], inner: ArraySlice<UInt8>, _: Int) throws(MediaFormatError) in
                    if guid == metadata || guid == metadataLibrary { attributes += libraryAttributes(inner) }
                }
            default:
                break
            }
        }
        guard sawFile else { throw MediaFormatError(.malformed, at: 30, "ASF header has no File Properties object") }
        apply(attributes, to: &meta)
        return meta
    }

    /// Walks the objects in `bytes` (GUID, 64-bit size including the 24-byte head, body).
    static func objects(
        in bytes: ArraySlice<UInt8>, base: Int, _ visit: ([UInt8], ArraySlice<UInt8>, Int) throws(MediaFormatError) -> Void
    ) throws(MediaFormatError) {
        var p = bytes.startIndex
        while p + 24 <= bytes.endIndex {
            let guid = Array(bytes[p..<(p + 16)])
            let size = Int(clamping: u64(bytes, p - bytes.startIndex + 16))
            guard size >= 24, size <= bytes.endIndex - p else {
                throw MediaFormatError(.truncated, at: base + p - bytes.startIndex, "ASF object declares \(size) bytes, \(bytes.endIndex - p) remain")
            }
            try visit(guid, bytes[(p + 24)..<(p + size)], base + p - bytes.startIndex + 24)
            p += size
        }
    }

    enum Value {
        case text(String)
        case number(Int)
        case bytes(ArraySlice<UInt8>)
    }

    static func value(type: Int, _ data: ArraySlice<UInt8>) -> Value? {
        switch type {
        case 0: return .text(text(data))
        case 1: return .bytes(data)
        case 2, 3: return data.count >= 4 ? .number(Int(Bytes.u32le(data, data.startIndex))) : nil
        case 4: return data.count >= 8 ? .number(Int(clamping: u64(data, 0))) : nil
        case 5: return data.count >= 2 ? .number(Int(u16(data, 0))) : nil
        default: return nil
        }
    }

    /// Extended Content Description: a count, then name length, name, type, value length, value.
    static func extendedAttributes(_ body: ArraySlice<UInt8>) -> [(String, Value)] {
        guard body.count >= 2 else { return [] }
        let count = Int(u16(body, 0))
        var p = body.startIndex + 2
        var out: [(String, Value)] = []
        for _ in 0..<count {
            guard p + 2 <= body.endIndex else { break }
            let nameLength = Int(u16(body, p - body.startIndex))
            guard p + 2 + nameLength + 4 <= body.endIndex else { break }
            let name = text(body[(p + 2)..<(p + 2 + nameLength)])
            p += 2 + nameLength
            let type = Int(u16(body, p - body.startIndex))
            let length = Int(u16(body, p - body.startIndex + 2))
            p += 4
            guard p + length <= body.endIndex else { break }
            if let value = value(type: type, body[p..<(p + length)]) { out.append((name, value)) }
            p += length
        }
        return out
    }

    /// Metadata and Metadata Library objects: a count, then language, stream, name length,
    /// type (16-bit each), value length (32-bit), name, value.
    static func libraryAttributes(_ body: ArraySlice<UInt8>) -> [(String, Value)] {
        guard body.count >= 2 else { return [] }
        let count = Int(u16(body, 0))
        var p = body.startIndex + 2
        var out: [(String, Value)] = []
        for _ in 0..<count {
            guard p + 12 <= body.endIndex else { break }
            let nameLength = Int(u16(body, p - body.startIndex + 4))
            let type = Int(u16(body, p - body.startIndex + 6))
            let length = Int(Bytes.u32le(body, p + 8))
            p += 12
            guard nameLength <= body.endIndex - p, length <= body.endIndex - p - nameLength else { break }
            let name = text(body[p..<(p + nameLength)])
            p += nameLength
            // Type 6 is a GUID; nothing Juke shows.
            if let value = value(type: type, body[p..<(p + length)]) { out.append((name, value)) }
            p += length
        }
        return out
    }

    static func apply(_ attributes: [(String, Value)], to meta: inout AudioMetadata) {
        func string(_ value: Value) -> String? {
            switch value {
            case .text(let t): t.nonBlank
            case .number(let n): String(n)
            case .bytes: nil
            }
        }
        for (name, value) in attributes {
            switch name {
            case "Title": meta.title = meta.title ?? string(value)
            case "Author": meta.artist = meta.artist ?? string(value)
            case "WM/AlbumTitle": meta.album = meta.album ?? string(value)
            case "WM/AlbumArtist": meta.albumArtist = meta.albumArtist ?? string(value)
            case "WM/Composer": meta.composer = meta.composer ?? string(value)
            case "WM/Genre": meta.genre = meta.genre ?? string(value)
            case "WM/Year": meta.year = meta.year ?? string(value).flatMap(parseYear)
            case "WM/TrackNumber", "WM/Track":
                let (n, t) = parseNumberPair(string(value))
                // WM/Track counts from 0.
                meta.trackNumber = meta.trackNumber ?? n.map { name == "WM/Track" ? $0 + 1 : $0 }
                meta.trackTotal = meta.trackTotal ?? t
            case "WM/PartOfSet":
                let (n, t) = parseNumberPair(string(value))
                meta.discNumber = meta.discNumber ?? n
                meta.discTotal = meta.discTotal ?? t
            case "WM/ISRC": meta.isrc = meta.isrc ?? string(value)
            case "WM/BeatsPerMinute": meta.bpm = meta.bpm ?? parseBPM(string(value))
            case "MusicBrainz/Track Id": meta.musicBrainzRecordingID = meta.musicBrainzRecordingID ?? string(value)
            case "WM/Picture":
                if case .bytes(let data) = value, let picture = picture(data) { meta.artwork.append(picture) }
            default: break
            }
        }
    }

    /// WM/Picture: type (1), data length (4), MIME and description (UTF-16LE, NUL-ended), data.
    static func picture(_ data: ArraySlice<UInt8>) -> Artwork? {
        guard data.count >= 5 else { return nil }
        let type = data[data.startIndex]
        let length = Int(Bytes.u32le(data, data.startIndex + 1))
        var p = data.startIndex + 5
        func nulEnded() -> String? {
            var q = p
            while q + 1 < data.endIndex, !(data[q] == 0 && data[q + 1] == 0) { q += 2 }
            guard q + 1 < data.endIndex else { return nil }
            defer { p = q + 2 }
            return text(data[p..<q])
        }
        guard let mime = nulEnded(), nulEnded() != nil, length <= data.endIndex - p else { return nil }
        let image = data[p..<(p + length)]
        return Artwork(mimeType: Artwork.sniffedMimeType(image, declared: mime), kind: type == 3 ? .frontCover : .other, data: Array(image))
    }

    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(TextEncoding.utf16LE.decode(bytes).prefix { $0 != "\0" })
    }

    static func u16(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt16 {
        UInt16(b[b.startIndex + i]) | UInt16(b[b.startIndex + i + 1]) << 8
    }

    static func u64(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt64 { Bytes.u64le(b, b.startIndex + i) }
}
