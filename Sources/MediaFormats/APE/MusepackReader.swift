/// Musepack stream information for the duration: SV8 ("MPCK", packets of a two-letter key
/// and a variable-length size; the SH packet holds the sample count and rate) and SV7
/// ("MP+", a fixed header of frames of 1152 samples). Tags are APEv2 at the end. The older
/// SV4-6 headers have no signature to know them by and are not read.
enum MusepackReader {
    static let rates = [44100, 48000, 37800, 32000]

    static func read(_ source: some ByteSource) throws(MediaFormatError) -> AudioMetadata {
        let head = try source.readExactly(at: 0, count: 4, what: "Musepack signature")
        var meta = AudioMetadata(format: .musepack)
        meta.channels = 2
        if head.elementsEqual("MPCK".utf8) {
            try readSV8(source, into: &meta)
        } else if head[0..<3].elementsEqual("MP+".utf8) {
            let h = try source.readExactly(at: 0, count: 32, what: "Musepack SV7 header")
            guard h[3] & 0x0F >= 7 else { throw MediaFormatError(.unsupported, at: 3, "Musepack stream version \(h[3] & 0x0F)") }
            let frames = Int(Bytes.u32le(h[...], 4))
            let rate = rates[Int((Bytes.u32le(h[...], 8) >> 16) & 3)]
            meta.sampleRate = rate
            meta.duration = max(0, Double(frames * 1152 - 576) / Double(rate))
        } else {
            throw MediaFormatError(.unsupported, at: 0, "not a Musepack file")
        }
        if let duration = meta.duration, duration > 0 { meta.bitrate = Int(Double(source.size * 8) / duration) }
        APEv2Tag.applyTrailingTags(from: source, to: &meta)
        return meta
    }

    /// Packets until the stream header (SH) is found, before the audio (AP) or the end (SE).
    static func readSV8(_ source: some ByteSource, into meta: inout AudioMetadata) throws(MediaFormatError) {
        var offset = 4
        for _ in 0..<64 {
            let key = try source.readExactly(at: offset, count: 2, what: "Musepack packet key")
            guard key.allSatisfy({ (0x41...0x5A).contains($0) }) else { throw MediaFormatError(.malformed, at: offset, "invalid Musepack packet key") }
            let name = latin1String(key[...])
            guard name != "AP", name != "SE" else { break }
            let (size, sizeLength) = try varint(source, at: offset + 2)
            guard size >= 2 + sizeLength, offset + size <= source.size else {
                throw MediaFormatError(.truncated, at: offset, "Musepack packet '\(name)' declares \(size) bytes")
            }
            if name == "SH" {
                let body = offset + 2 + sizeLength
                // CRC (4), version (1), sample count and skipped samples (variable), then rate and channels.
                let (samples, l1) = try varint(source, at: body + 5)
                let (skipped, l2) = try varint(source, at: body + 5 + l1)
                let tail = try source.readExactly(at: body + 5 + l1 + l2, count: 2, what: "Musepack stream header")
                let rateIndex = Int(tail[0] >> 5)
                guard rateIndex < rates.count else { throw MediaFormatError(.malformed, at: body, "Musepack sample rate index \(rateIndex)") }
                meta.sampleRate = rates[rateIndex]
                meta.channels = Int(tail[1] >> 4) + 1
                meta.duration = Double(max(0, samples - skipped)) / Double(rates[rateIndex])
                return
            }
            offset += size
        }
        throw MediaFormatError(.malformed, at: 4, "Musepack stream has no stream header")
    }

    /// SV8's sizes: 7 bits a byte, big-endian, the high bit set on all but the last.
    static func varint(_ source: some ByteSource, at offset: Int) throws(MediaFormatError) -> (value: Int, length: Int) {
        var value = 0
        for i in 0..<9 {
            let byte = try source.readExactly(at: offset + i, count: 1, what: "Musepack size")[0]
            value = value << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { return (value, i + 1) }
        }
        throw MediaFormatError(.malformed, at: offset, "Musepack size longer than 9 bytes")
    }
}
