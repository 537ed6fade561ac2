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
            case 0, 4, 6:
                let body = try source.readExactly(at: bodyOffset, count: length, what: "FLAC metadata block \(type)")
                if type == 0 {
                    try readStreamInfo(body, base: bodyOffset, into: &meta)
                    sawStreamInfo = true
                } else if type == 4 {
                    VorbisComments.apply(try VorbisComments.parse(body[...], base: bodyOffset), to: &meta)
                } else {
                    meta.artwork.append(try FLACPicture.parse(body[...], base: bodyOffset))
                }
            case 127:
                throw MediaFormatError(.malformed, at: offset, "invalid FLAC metadata block type 127")
            default:
                guard bodyOffset + length <= source.size else {
                    throw MediaFormatError(.truncated, at: offset, "FLAC block declares \(length) bytes past the end")
                }
            }
            offset = bodyOffset + length
        }
        guard sawStreamInfo else { throw MediaFormatError(.malformed, at: 4, "FLAC file has no STREAMINFO") }
        if let id3 { var tagged = AudioMetadata(format: .flac); ID3v2Metadata.apply(id3, to: &tagged); meta.fillGaps(from: tagged) }
        if let duration = meta.duration, duration > 0 { meta.bitrate = Int(Double((source.size - offset) * 8) / duration) }
        return meta
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
