/// Reads AIFF and AIFF-C files (Apple's rips): the COMM chunk for the duration (sample frames
/// over the 80-bit extended sample rate), an embedded "ID3 " chunk, and the NAME and AUTH text
/// chunks under it. Big-endian IFF chunks, each padded to an even length.
enum AIFFReader {
    static func read(_ source: some ByteSource) throws(MediaFormatError) -> AudioMetadata {
        let header = try source.readExactly(at: 0, count: 12, what: "FORM header")
        let kind = latin1String(header[8..<12])
        guard header[0..<4].elementsEqual("FORM".utf8), kind == "AIFF" || kind == "AIFC" else {
            throw MediaFormatError(.unsupported, at: 0, "not an AIFF file")
        }
        var meta = AudioMetadata(format: .aiff)
        var text = AudioMetadata(format: .aiff)
        var tagged = AudioMetadata(format: .aiff)
        var sawCommon = false
        var sawSound = false
        // A FORM size that lies (streaming writers leave it wrong) gives way to the file's size.
        let declaredEnd = 8 + Int(Bytes.u32be(header[...], 4))
        let end = declaredEnd >= 12 && declaredEnd <= source.size ? declaredEnd : source.size
        var offset = 12
        while offset + 8 <= end {
            let chunkHeader = try source.readExactly(at: offset, count: 8, what: "AIFF chunk header")
            let id = latin1String(chunkHeader[0..<4])
            let size = Int(Bytes.u32be(chunkHeader[...], 4))
            let body = offset + 8
            let fits = body + size <= source.size
            switch id {
            case "COMM":
                let common = try source.readExactly(at: body, count: min(size, 22), what: "COMM chunk")
                guard common.count >= 18 else { throw MediaFormatError(.truncated, at: body, "COMM chunk shorter than 18 bytes") }
                try readCommon(common, base: body, compressed: kind == "AIFC", into: &meta)
                sawCommon = true
            case "SSND":
                sawSound = true
            case "ID3 ", "id3 ":
                guard fits, let bytes = try? source.readExactly(at: body, count: size, what: "ID3 chunk") else {
                    meta.warnings.append("AIFF ID3 chunk at byte \(offset) runs past the end and was skipped")
                    break
                }
                do {
                    ID3v2Metadata.apply(try ID3v2Tag(bytes: bytes, fileOffset: body), to: &tagged)
                } catch {
                    meta.warnings.append("AIFF ID3 chunk at byte \(offset) is damaged and was skipped (\(error))")
                }
            case "NAME", "AUTH":
                guard fits, size <= 4096, let bytes = try? source.readExactly(at: body, count: size, what: "\(id) chunk") else { break }
                let value = String(TextEncoding.latin1.decode(bytes[...]).filter { $0 != "\0" })
                if id == "NAME" { text.title = value.nonBlank } else { text.artist = value.nonBlank }
            default:
                break
            }
            guard fits || id == "SSND" else {
                // A chunk that runs past the end ends the reading; what came before stands.
                if id != "ID3 " && id != "id3 " { meta.warnings.append("AIFF chunk '\(id)' at byte \(offset) runs past the end") }
                break
            }
            offset = body + size + (size & 1)
        }
        guard sawCommon else { throw MediaFormatError(.malformed, at: 12, "AIFF file has no COMM chunk") }
        if !sawSound { meta.warnings.append("AIFF file has no SSND chunk") }
        // The ID3 chunk is the richer tag; NAME and AUTH fill what it lacks.
        meta.fillGaps(from: tagged)
        meta.fillGaps(from: text)
        return meta
    }

    /// COMM: channels (2), sample frames (4), bits per sample (2), sample rate (80-bit
    /// extended); AIFF-C adds the compression type.
    static func readCommon(_ c: [UInt8], base: Int, compressed: Bool, into meta: inout AudioMetadata) throws(MediaFormatError) {
        let channels = Int(c[0]) << 8 | Int(c[1])
        let frames = Int(Bytes.u32be(c[...], 2))
        let bits = Int(c[6]) << 8 | Int(c[7])
        let rate = extended80(c[8..<18])
        guard rate.isFinite, rate >= 1, rate <= 10_000_000 else {
            throw MediaFormatError(.malformed, at: base + 8, "AIFF sample rate \(rate) is not a sample rate")
        }
        meta.channels = channels
        meta.sampleRate = Int(rate.rounded())
        meta.duration = Double(frames) / rate
        let codec = c.count >= 22 ? latin1String(c[18..<22]) : "NONE"
        if !compressed || ["NONE", "sowt", "twos", "raw ", "in24", "in32", "fl32", "fl64", "FL32", "FL64"].contains(codec) {
            meta.bitrate = Int(rate.rounded()) * channels * bits
        }
    }

    /// An IEEE 754 80-bit extended number (sign, 15-bit exponent, 64-bit mantissa with its
    /// integer bit), as AIFF writes the sample rate.
    static func extended80(_ b: ArraySlice<UInt8>) -> Double {
        let bytes = Array(b)
        guard bytes.count == 10 else { return .nan }
        let exponent = (Int(bytes[0] & 0x7F) << 8) | Int(bytes[1])
        var mantissa: UInt64 = 0
        for byte in bytes[2..<10] { mantissa = mantissa << 8 | UInt64(byte) }
        if exponent == 0 && mantissa == 0 { return 0 }
        if exponent == 0x7FFF { return .nan }
        let value = Double(sign: .plus, exponent: exponent - 16383 - 63, significand: Double(mantissa))
        return bytes[0] & 0x80 != 0 ? -value : value
    }
}
