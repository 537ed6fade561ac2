/// The stream information of the lossless formats that carry APEv2 tags, for their
/// durations: WavPack (block headers "wvpk") and Monkey's Audio ("MAC ").
enum WavPackReader {
    static let rates = [6000, 8000, 9600, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000, 192000]

    static func read(_ source: some ByteSource) throws(MediaFormatError) -> AudioMetadata {
        var header = try source.readExactly(at: 0, count: 32, what: "WavPack block header")
        guard header[0..<4].elementsEqual("wvpk".utf8) else { throw MediaFormatError(.unsupported, at: 0, "not a WavPack file") }
        var meta = AudioMetadata(format: .wavpack)
        let flags = Bytes.u32le(header[...], 24)
        let rateIndex = Int((flags >> 23) & 0xF)
        var rate = rateIndex < rates.count ? rates[rateIndex] : 0
        if (flags >> 31) & 1 == 1 { rate *= 4 }  // DSD: the most common multiplier (DSD64)
        meta.channels = flags & 4 != 0 ? 1 : 2
        if rate > 0 { meta.sampleRate = rate }
        var samples = Int(Bytes.u32le(header[...], 12))
        if samples == 0xFFFF_FFFF || Bytes.u32le(header[...], 16) != 0 {
            // Not given in the first block: the blocks' own counts, added up.
            samples = 0
            var offset = 0
            for _ in 0..<1_000_000 {
                samples += Int(Bytes.u32le(header[...], 20))
                offset += Int(Bytes.u32le(header[...], 4)) + 8
                guard offset + 32 <= source.size, let next = try? source.readExactly(at: offset, count: 32, what: "WavPack block header"),
                    next[0..<4].elementsEqual("wvpk".utf8)
                else { break }
                header = next
            }
        }
        if rate > 0 { meta.duration = Double(samples) / Double(rate) }
        if let duration = meta.duration, duration > 0 { meta.bitrate = Int(Double(source.size * 8) / duration) }
        APEv2Tag.applyTrailingTags(from: source, to: &meta)
        return meta
    }
}

enum MonkeysAudioReader {
    static func read(_ source: some ByteSource) throws(MediaFormatError) -> AudioMetadata {
        let h = try source.readExactly(at: 0, count: 76, what: "Monkey's Audio header")
        guard h[0..<4].elementsEqual("MAC ".utf8) else { throw MediaFormatError(.unsupported, at: 0, "not a Monkey's Audio file") }
        func u16(_ i: Int) -> Int { Int(h[i]) | Int(h[i + 1]) << 8 }
        func u32(_ i: Int) -> Int { Int(Bytes.u32le(h[...], i)) }
        let version = u16(4)
        var meta = AudioMetadata(format: .monkeysAudio)
        let blocksPerFrame: Int
        let finalFrameBlocks: Int
        let totalFrames: Int
        let rate: Int
        if version >= 3980 {
            // A descriptor (52 bytes from byte 4), then the header.
            blocksPerFrame = u32(56)
            finalFrameBlocks = u32(60)
            totalFrames = u32(64)
            meta.channels = u16(70)
            rate = u32(72)
        } else {
            let compression = u16(6)
            meta.channels = u16(10)
            rate = u32(12)
            totalFrames = u32(24)
            finalFrameBlocks = u32(28)
            blocksPerFrame = version >= 3950 ? 73728 * 4 : version >= 3900 || (version >= 3800 && compression == 4000) ? 73728 : 9216
        }
        guard rate > 0, rate <= 1_000_000 else { throw MediaFormatError(.malformed, at: 0, "Monkey's Audio sample rate \(rate)") }
        meta.sampleRate = rate
        if totalFrames > 0 {
            meta.duration = Double((totalFrames - 1) * blocksPerFrame + finalFrameBlocks) / Double(rate)
        } else {
            meta.duration = 0
        }
        if let duration = meta.duration, duration > 0 { meta.bitrate = Int(Double(source.size * 8) / duration) }
        APEv2Tag.applyTrailingTags(from: source, to: &meta)
        return meta
    }
}
