/// What the chapter walk needs to know of one `trak`: its ID, its handler, the chapter
/// tracks it points to, and, for text tracks only, its sample table.
struct MP4ChapterTrack {
    var id: UInt32?
    var handler: String?
    var chapterTrackIDs: [UInt32] = []
    var timescale: UInt32 = 0
    /// tkhd's duration, in the movie's timescale (after the track's edits); 0 when not given.
    var presentedDuration: UInt64 = 0
    /// mdhd's duration, in the track's own timescale; 0 when not given.
    var mediaDuration: UInt64 = 0
    var samples: SampleTable?

    /// Handlers of tracks that can carry chapter titles.
    static let textHandlers: Set<String> = ["text", "sbtl", "subt"]

    struct SampleTable {
        /// stts: (sample count, duration of each) runs.
        var timeToSample: [(count: UInt32, delta: UInt32)] = []
        /// stsz: one size for every sample, or each sample's size.
        var fixedSize: UInt32 = 0
        var sizes: [UInt32] = []
        var sampleCount: Int = 0
        /// stsc: (first chunk, 1-based; samples per chunk) runs.
        var sampleToChunk: [(firstChunk: UInt32, samplesPerChunk: UInt32)] = []
        /// stco / co64.
        var chunkOffsets: [UInt64] = []
    }

    /// How long this track plays, in seconds: tkhd's duration (which counts the track's edits)
    /// in the movie's `movieTimescale`, else mdhd's in the track's; nil when neither says.
    func seconds(movieTimescale: UInt32?) -> Double? {
        // All ones is "unknown" in both boxes.
        func known(_ value: UInt64) -> Bool { value > 0 && value != UInt64(UInt32.max) && value != UInt64.max }
        if let movieTimescale, movieTimescale > 0, known(presentedDuration) { return Double(presentedDuration) / Double(movieTimescale) }
        if timescale > 0, known(mediaDuration) { return Double(mediaDuration) / Double(timescale) }
        return nil
    }

    static func read(_ trak: MP4Box, in source: some ByteSource) throws(MediaFormatError) -> MP4ChapterTrack {
        var track = MP4ChapterTrack()
        var media: MP4Box?
        for child in try MP4ChapterReader.children(of: trak, in: source) {
            switch child.type {
            case "tkhd":
                var r = ByteReader(try MP4ChapterReader.payload(of: child, in: source), base: child.payloadOffset)
                let version = try r.u8()
                try r.skip(3 + (version == 1 ? 16 : 8), "tkhd dates")
                track.id = try r.u32be()
                try r.skip(4, "tkhd reserved")
                track.presentedDuration = version == 1 ? try r.u64be() : UInt64(try r.u32be())
            case "tref":
                for ref in try MP4ChapterReader.children(of: child, in: source) where ref.type == "chap" {
                    var r = ByteReader(try MP4ChapterReader.payload(of: ref, in: source), base: ref.payloadOffset)
                    while r.remaining >= 4 { track.chapterTrackIDs.append(try r.u32be()) }
                }
            case "mdia": media = child
            default: break
            }
        }
        guard let media else { return track }
        let mediaChildren = try MP4ChapterReader.children(of: media, in: source)
        for child in mediaChildren {
            switch child.type {
            case "mdhd":
                var r = ByteReader(try MP4ChapterReader.payload(of: child, in: source), base: child.payloadOffset)
                let version = try r.u8()
                try r.skip(3 + (version == 1 ? 16 : 8), "mdhd dates")
                track.timescale = try r.u32be()
                track.mediaDuration = version == 1 ? try r.u64be() : UInt64(try r.u32be())
            case "hdlr":
                var r = ByteReader(try MP4ChapterReader.payload(of: child, in: source), base: child.payloadOffset)
                try r.skip(8, "hdlr version and pre-defined")
                track.handler = try r.fourCC()
            default: break
            }
        }
        // The audio track's tables are the megabytes this walk exists to skip.
        guard let handler = track.handler, textHandlers.contains(handler),
            let minf = mediaChildren.first(where: { $0.type == "minf" }),
            let stbl = try MP4ChapterReader.children(of: minf, in: source).first(where: { $0.type == "stbl" })
        else { return track }
        track.samples = try readSampleTable(stbl, in: source)
        return track
    }

    private static func readSampleTable(_ stbl: MP4Box, in source: some ByteSource) throws(MediaFormatError) -> SampleTable {
        var table = SampleTable()
        for box in try MP4ChapterReader.children(of: stbl, in: source) {
            guard ["stts", "stsz", "stsc", "stco", "co64"].contains(box.type) else { continue }
            var r = ByteReader(try MP4ChapterReader.payload(of: box, in: source), base: box.payloadOffset)
            try r.skip(4, "\(box.type) version and flags")
            switch box.type {
            case "stts":
                let count = try entryCount(&r, entrySize: 8, box: box)
                for _ in 0..<count { table.timeToSample.append((try r.u32be(), try r.u32be())) }
            case "stsz":
                table.fixedSize = try r.u32be()
                let count = Int(try r.u32be())
                table.sampleCount = count
                if table.fixedSize == 0 {
                    try r.require(count * 4, "stsz sizes")
                    for _ in 0..<count { table.sizes.append(try r.u32be()) }
                }
            case "stsc":
                let count = try entryCount(&r, entrySize: 12, box: box)
                for _ in 0..<count {
                    let first = try r.u32be()
                    let perChunk = try r.u32be()
                    try r.skip(4, "stsc sample description")
                    table.sampleToChunk.append((first, perChunk))
                }
            case "stco":
                let count = try entryCount(&r, entrySize: 4, box: box)
                for _ in 0..<count { table.chunkOffsets.append(UInt64(try r.u32be())) }
            default:  // co64
                let count = try entryCount(&r, entrySize: 8, box: box)
                for _ in 0..<count { table.chunkOffsets.append(try r.u64be()) }
            }
        }
        return table
    }

    /// A table's entry count, checked against the bytes the box holds.
    private static func entryCount(_ r: inout ByteReader, entrySize: Int, box: MP4Box) throws(MediaFormatError) -> Int {
        let count = Int(try r.u32be())
        guard count <= r.remaining / entrySize else {
            throw MediaFormatError(.malformed, at: box.offset, "\(box.type) declares \(count) entries, box holds \(r.remaining / entrySize)")
        }
        return count
    }
}
