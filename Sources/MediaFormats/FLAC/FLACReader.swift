/// Reads a native FLAC file: STREAMINFO, VORBIS_COMMENT and PICTURE metadata blocks,
/// after an optional (non-standard but common) ID3v2 tag.
enum FLACReader {
    static func read(_ source: some ByteSource) throws(MediaFormatError) -> AudioMetadata {
        var meta = AudioMetadata(format: .flac)
        var offset = 0
        var id3: ID3v2Tag?
        if let header = try? source.readExactly(at: 0, count: 10, what: "header"), let size = ID3v2Tag.declaredSize(header: header) {
            id3 = try? ID3v2Tag(bytes: try source.readExactly(at: 0, count: size, what: "ID3v2 tag"))
            offset = size
        }
        let magic = try source.readExactly(at: offset, count: 4, what: "FLAC signature")
        guard magic.elementsEqual("fLaC".utf8) else { throw MediaFormatError(.unsupported, at: offset, "not a FLAC file") }
        offset += 4
        var isLast = false
        var sawStreamInfo = false
        while !isLast {
            let header = try source.readExactly(at: offset, count: 4, what: "FLAC metadata block header")
            isLast = header[0] & 0x80 != 0
            let type = header[0] & 0x7F
            let length = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            let bodyOffset = offset + 4
            switch type {
            case 0:
                let body = try source.readExactly(at: bodyOffset, count: length, what: "FLAC metadata block \(type)")
                try readStreamInfo(body, base: bodyOffset, into: &meta)
                sawStreamInfo = true
                offset = bodyOffset + length
            case 4, 6:
                offset = readTagBlock(type, declared: length, at: bodyOffset, in: source, into: &meta)
            case 127:
                throw MediaFormatError(.malformed, at: offset, "invalid FLAC metadata block type 127")
            default:
                guard bodyOffset + length <= source.size else {
                    throw MediaFormatError(.truncated, at: offset, "FLAC block declares \(length) bytes past the end")
                }
                offset = bodyOffset + length
            }
        }
        guard sawStreamInfo else { throw MediaFormatError(.malformed, at: 4, "FLAC file has no STREAMINFO") }
        if let id3 { var tagged = AudioMetadata(format: .flac); ID3v2Metadata.apply(id3, to: &tagged); meta.fillGaps(from: tagged) }
        if let duration = meta.duration, duration > 0 { meta.bitrate = Int(Double((source.size - offset) * 8) / duration) }
        return meta
    }

    /// A VORBIS_COMMENT (4) or PICTURE (6) block, as mutagen and the reference decoder read
    /// them: by their own structure rather than the block's declared length, which some
    /// writers get wrong; the next block starts where the structure ends. A block that cannot
    /// be read either way is skipped with a warning (the tags are lost, the file is not).
    /// Returns where the next block starts.
    static func readTagBlock(_ type: UInt8, declared: Int, at body: Int, in source: some ByteSource, into meta: inout AudioMetadata) -> Int {
        let name = type == 4 ? "Vorbis comment" : "picture"
        let measured = try? (type == 4 ? vorbisCommentLength(at: body, in: source) : pictureLength(at: body, in: source))
        for length in [measured, declared].compactMap({ $0 }) where body + length <= source.size {
            guard let bytes = try? source.readExactly(at: body, count: length, what: "FLAC \(name) block") else { continue }
            do {
                if type == 4 {
                    VorbisComments.apply(try VorbisComments.parse(bytes[...], base: body), to: &meta)
                } else {
                    meta.artwork.append(try FLACPicture.parse(bytes[...], base: body))
                }
                if length != declared { meta.warnings.append("FLAC \(name) block at byte \(body - 4) declares \(declared) bytes but holds \(length)") }
                return body + length
            } catch {
                continue
            }
        }
        meta.warnings.append("FLAC \(name) block at byte \(body - 4) is damaged and was skipped")
        return body + declared
    }

    /// A Vorbis comment block's length from its own fields (vendor, count, each comment).
    static func vorbisCommentLength(at body: Int, in source: some ByteSource) throws(MediaFormatError) -> Int {
        func u32le(_ at: Int) throws(MediaFormatError) -> Int {
            Int(Bytes.u32le(try source.readExactly(at: at, count: 4, what: "Vorbis comment length")[...], 0))
        }
        var p = body + 4 + (try u32le(body))
        let count = try u32le(p)
        p += 4
        guard count <= (source.size - p) / 4 else { throw MediaFormatError(.malformed, at: p - 4, "\(count) comments cannot fit") }
        for _ in 0..<count {
            p += 4 + (try u32le(p))
            guard p <= source.size else { throw MediaFormatError(.truncated, at: p, "a comment runs past the end") }
        }
        return p - body
    }

    /// A picture block's length from its own fields (type, MIME, description, size, data).
    static func pictureLength(at body: Int, in source: some ByteSource) throws(MediaFormatError) -> Int {
        func u32be(_ at: Int) throws(MediaFormatError) -> Int {
            Int(Bytes.u32be(try source.readExactly(at: at, count: 4, what: "picture field length")[...], 0))
        }
        var p = body + 4
        p += 4 + (try u32be(p))  // MIME type
        guard p + 4 <= source.size else { throw MediaFormatError(.truncated, at: p, "picture runs past the end") }
        p += 4 + (try u32be(p))  // description
        p += 16  // width, height, depth, colours
        guard p + 4 <= source.size else { throw MediaFormatError(.truncated, at: p, "picture runs past the end") }
        p += 4 + (try u32be(p))  // data
        guard p <= source.size else { throw MediaFormatError(.truncated, at: p, "picture data runs past the end") }
        return p - body
    }

    /// STREAMINFO: block sizes (4), frame sizes (6), then 20 bits rate, 3 channels-1,
    /// 5 bits-per-sample-1, 36 total samples.
    static func readStreamInfo(_ body: [UInt8], base: Int, into meta: inout AudioMetadata) throws(MediaFormatError) {
        guard body.count >= 18 else { throw MediaFormatError(.truncated, at: base, "STREAMINFO is \(body.count) bytes, needs 18") }
        let rate = Int(body[10]) << 12 | Int(body[11]) << 4 | Int(body[12]) >> 4
        let channels = Int((body[12] >> 1) & 0x07) + 1
        let samples = Int(body[13] & 0x0F) << 32 | Int(body[14]) << 24 | Int(body[15]) << 16 | Int(body[16]) << 8 | Int(body[17])
        guard rate > 0 else { throw MediaFormatError(.malformed, at: base + 10, "FLAC sample rate is 0") }
        meta.sampleRate = rate
        meta.channels = channels
        if samples > 0 { meta.duration = Double(samples) / Double(rate) }
    }
}
