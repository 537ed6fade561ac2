/// The QuickTime chapter track: a text track named by another track's `tref/chap`, whose
/// samples are the chapter titles (a 16-bit length, then UTF-8 or UTF-16 text with a byte
/// order mark) and whose sample times are the chapter starts.
enum QuickTimeChapters {
    /// More samples than this is not a chapter list (a subtitle track, or a lie).
    static let maxChapters = 100_000

    static func marks(tracks: [MP4ChapterTrack], in source: some ByteSource) throws(MediaFormatError) -> [ChapterTimeline.Mark] {
        let referenced = tracks.flatMap(\.chapterTrackIDs)
        guard
            let track = referenced.lazy.compactMap({ id in tracks.first { $0.id == id && $0.samples != nil } }).first,
            let table = track.samples, track.timescale > 0
        else { return [] }
        let locations = try sampleLocations(table)
        let starts = sampleStarts(table, count: locations.count, timescale: track.timescale)
        let titles = try titles(at: Array(locations.prefix(starts.count)), in: source)
        return zip(titles, starts).map { ChapterTimeline.Mark(title: $0, start: $1) }
    }

    /// Each sample's file offset and size, from the chunk offsets, samples per chunk and sizes.
    static func sampleLocations(_ table: MP4ChapterTrack.SampleTable) throws(MediaFormatError) -> [(offset: UInt64, size: UInt32)] {
        let count = table.fixedSize == 0 ? min(table.sampleCount, table.sizes.count) : table.sampleCount
        guard count <= maxChapters else {
            throw MediaFormatError(.malformed, at: 0, "chapter track declares \(count) samples")
        }
        var locations: [(offset: UInt64, size: UInt32)] = []
        locations.reserveCapacity(count)
        for (index, run) in table.sampleToChunk.enumerated() {
            let lastChunk = index + 1 < table.sampleToChunk.count ? Int(table.sampleToChunk[index + 1].firstChunk) - 1 : table.chunkOffsets.count
            guard run.firstChunk >= 1, Int(run.firstChunk) - 1 <= lastChunk else {
                throw MediaFormatError(.malformed, at: 0, "chapter track's stsc runs are out of order")
            }
            var chunk = Int(run.firstChunk)
            while chunk <= min(lastChunk, table.chunkOffsets.count), locations.count < count {
                var offset = table.chunkOffsets[chunk - 1]
                // Offsets past Int.max cannot be in a file, and keep the sums below from overflowing.
                guard offset <= UInt64(Int.max) else {
                    throw MediaFormatError(.malformed, at: 0, "chapter track's chunk offset \(offset) is past any file")
                }
                for _ in 0..<min(Int(run.samplesPerChunk), count - locations.count) {
                    let size = table.fixedSize == 0 ? table.sizes[locations.count] : table.fixedSize
                    locations.append((offset, size))
                    offset += UInt64(size)
                }
                chunk += 1
            }
        }
        return locations
    }

    /// Each sample's start in seconds, from the time-to-sample runs.
    static func sampleStarts(_ table: MP4ChapterTrack.SampleTable, count: Int, timescale: UInt32) -> [Double] {
        var starts: [Double] = []
        starts.reserveCapacity(count)
        var time: UInt64 = 0
        for run in table.timeToSample {
            for _ in 0..<min(Int(run.count), count - starts.count) {
                starts.append(Double(time) / Double(timescale))
                time += UInt64(run.delta)
            }
            if starts.count == count { break }
        }
        return starts
    }

    /// The titles at `locations`, reading each run of adjacent samples with one read.
    static func titles(at locations: [(offset: UInt64, size: UInt32)], in source: some ByteSource) throws(MediaFormatError) -> [String] {
        var titles: [String] = []
        titles.reserveCapacity(locations.count)
        var index = 0
        while index < locations.count {
            let runStart = locations[index].offset
            var runEnd = runStart + UInt64(locations[index].size)
            var last = index
            while last + 1 < locations.count, locations[last + 1].offset == runEnd,
                runEnd - runStart + UInt64(locations[last + 1].size) <= UInt64(MP4ChapterReader.maxTableSize)
            {
                last += 1
                runEnd += UInt64(locations[last].size)
            }
            guard runEnd - runStart <= UInt64(MP4ChapterReader.maxTableSize), runStart <= UInt64(Int.max) else {
                throw MediaFormatError(.malformed, at: 0, "chapter title sample of \(runEnd - runStart) bytes")
            }
            let bytes = try source.readExactly(at: Int(runStart), count: Int(runEnd - runStart), what: "chapter titles")
            var position = 0
            for sample in locations[index...last] {
                titles.append(title(bytes[position..<position + Int(sample.size)]))
                position += Int(sample.size)
            }
            index = last + 1
        }
        return titles
    }

    /// One text sample: a big-endian length, then the text (UTF-16 when it starts with a BOM).
    static func title(_ sample: ArraySlice<UInt8>) -> String {
        guard sample.count >= 2 else { return "" }
        let declared = Int(sample[sample.startIndex]) << 8 | Int(sample[sample.startIndex + 1])
        let text = sample.dropFirst(2).prefix(declared)
        if text.starts(with: [0xFE, 0xFF]) || text.starts(with: [0xFF, 0xFE]) { return TextEncoding.utf16WithBOM.decode(text) }
        return TextEncoding.utf8.decode(text)
    }
}
