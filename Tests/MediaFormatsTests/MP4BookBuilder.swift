/// Builds M4B files in memory with any mix of chapter lists: what ffmpeg will not write for
/// the tests (the megabytes of sample table a 10-hour book carries, UTF-16 titles, lies).
struct MP4BookBuilder {
    var duration: Double = 36_000
    /// Entries in the audio track's sample size table: 10 hours of AAC at 44.1 kHz.
    var audioSampleCount = 1_550_000
    var quickTime: [(title: String, start: Double)]? = nil
    var quickTimeUTF16 = false
    var nero: [(title: String, start: Double)]? = nil

    func build() -> [UInt8] {
        let ftyp = Self.box("ftyp", Array("M4B ".utf8) + Self.be32(0) + Array("M4B isomiso2".utf8))
        let samples = titleSamples()
        // The moov's size does not depend on the offsets in it: build once to learn where
        // mdat's payload starts, then again with the real offset.
        let draft = moov(titlesAt: 0, samples: samples)
        let titlesAt = ftyp.count + draft.count + 8
        return ftyp + moov(titlesAt: UInt32(titlesAt), samples: samples) + Self.box("mdat", samples.flatMap { $0 })
    }

    private func titleSamples() -> [[UInt8]] {
        (quickTime ?? []).map { chapter in
            let text: [UInt8] =
                quickTimeUTF16
                ? [0xFE, 0xFF] + chapter.title.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
                : Array(chapter.title.utf8)
            return [UInt8(text.count >> 8), UInt8(text.count & 0xFF)] + text
        }
    }

    private func moov(titlesAt: UInt32, samples: [[UInt8]]) -> [UInt8] {
        let timescale: UInt32 = 1000
        let mvhd = Self.box(
            "mvhd", Self.be32(0) + Self.be32(0) + Self.be32(0) + Self.be32(timescale) + Self.be32(UInt32(duration * 1000)) + [UInt8](repeating: 0, count: 80))
        var children = mvhd
        let hasChapterTrack = quickTime != nil
        let audioTable =
            Self.fullBox("stts", Self.be32(1) + Self.be32(UInt32(audioSampleCount)) + Self.be32(1024))
            + Self.fullBox("stsz", Self.be32(0) + Self.be32(UInt32(audioSampleCount)) + [UInt8](repeating: 0x01, count: audioSampleCount * 4))
            + Self.fullBox("stsc", Self.be32(1) + Self.be32(1) + Self.be32(UInt32(audioSampleCount)) + Self.be32(1))
            + Self.fullBox("stco", Self.be32(1) + Self.be32(0))
        children += track(id: 1, handler: "soun", timescale: 44_100, chapterTrack: hasChapterTrack ? 2 : nil, table: audioTable)
        if let quickTime {
            var stts: [UInt8] = Self.be32(UInt32(quickTime.count))
            for (index, chapter) in quickTime.enumerated() {
                let end = index + 1 < quickTime.count ? quickTime[index + 1].start : duration
                stts += Self.be32(1) + Self.be32(UInt32(max(0, (end - chapter.start) * 1000)))
            }
            let textTable =
                Self.fullBox("stts", stts)
                + Self.fullBox("stsz", Self.be32(0) + Self.be32(UInt32(samples.count)) + samples.flatMap { Self.be32(UInt32($0.count)) })
                + Self.fullBox("stsc", Self.be32(1) + Self.be32(1) + Self.be32(UInt32(samples.count)) + Self.be32(1))
                + Self.fullBox("stco", Self.be32(1) + Self.be32(titlesAt))
            children += track(id: 2, handler: "text", timescale: timescale, chapterTrack: nil, table: textTable)
        }
        if let nero {
            var chpl: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, UInt8(nero.count)]
            for chapter in nero {
                let title = Array(chapter.title.utf8.prefix(255))
                chpl += Self.be64(UInt64(chapter.start * 10_000_000)) + [UInt8(title.count)] + title
            }
            children += Self.box("udta", Self.box("chpl", chpl))
        }
        return Self.box("moov", children)
    }

    private func track(id: UInt32, handler: String, timescale: UInt32, chapterTrack: UInt32?, table: [UInt8]) -> [UInt8] {
        let tkhd = Self.fullBox("tkhd", Self.be32(0) + Self.be32(0) + Self.be32(id) + [UInt8](repeating: 0, count: 68))
        let tref = chapterTrack.map { Self.box("tref", Self.box("chap", Self.be32($0))) } ?? []
        let mdhd = Self.fullBox(
            "mdhd", Self.be32(0) + Self.be32(0) + Self.be32(timescale) + Self.be32(UInt32((duration * Double(timescale)).rounded())) + [0x55, 0xC4, 0, 0])
        let hdlr = Self.fullBox("hdlr", Self.be32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
        let minf = Self.box("minf", Self.box("stbl", Self.fullBox("stsd", Self.be32(0)) + table))
        return Self.box("trak", tkhd + tref + Self.box("mdia", mdhd + hdlr + minf))
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload }
    static func fullBox(_ type: String, _ payload: [UInt8]) -> [UInt8] { box(type, [0, 0, 0, 0] + payload) }
    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func be64(_ v: UInt64) -> [UInt8] { be32(UInt32(v >> 32)) + be32(UInt32(v & 0xFFFF_FFFF)) }
}
