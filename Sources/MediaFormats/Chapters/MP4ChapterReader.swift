/// Chapters of an MP4 / M4A / M4B, read without loading the moov box.
///
/// A 10-hour audiobook's sample tables weigh megabytes, but chapters live in a few small
/// boxes: the walk reads box headers, `mvhd`, each track's `tkhd`, `tref`, `mdhd` and
/// `hdlr`, the sample tables of the chapter track only, the chapter titles, and `chpl`.
/// So reading the chapters of any book costs kilobytes.
enum MP4ChapterReader {
    /// A box Juke reads whole here (a chapter track's tables, `chpl`) is never larger.
    static let maxTableSize = 4 * 1024 * 1024

    static func read(_ file: some ByteSource) throws(MediaFormatError) -> ChapterList {
        let source = ReadAheadSource(file)
        let top = try MP4Box.children(of: source, from: 0, to: source.size)
        guard let first = top.first, ["ftyp", "moov", "free", "skip", "wide", "mdat"].contains(first.type) else {
            throw MediaFormatError(.unsupported, at: 0, "not an MP4 file")
        }
        guard let moov = top.first(where: { $0.type == "moov" }) else {
            throw MediaFormatError(.malformed, at: 0, "MP4 file has no moov box")
        }
        var duration: Double?
        var movieTimescale: UInt32?
        var tracks: [MP4ChapterTrack] = []
        var nero: [ChapterTimeline.Mark] = []
        for child in try children(of: moov, in: source) {
            switch child.type {
            case "mvhd":
                let payload = try payload(of: child, in: source)
                duration = try MP4Reader.movieDuration(payload[...], offset: child.offset)
                movieTimescale = MP4Reader.movieTimescale(payload[...])
            case "trak":
                tracks.append(try MP4ChapterTrack.read(child, in: source))
            case "udta":
                for box in try children(of: child, in: source) where box.type == "chpl" {
                    nero = try NeroChapters.parse(try payload(of: box, in: source), offset: box.payloadOffset)
                }
            default: break
            }
        }
        let quickTime = try QuickTimeChapters.marks(tracks: tracks, in: source)
        return choose(quickTime: quickTime, nero: nero, duration: audioDuration(movie: duration, tracks: tracks, movieTimescale: movieTimescale))
    }

    /// How long the book's sound plays. The movie lasts as long as its longest track, and the
    /// chapter track is as long as the chapters say: chapters that run past the audio (a file
    /// made from a longer edition) would make a movie longer than anything it can play. The
    /// sound track's own length is the book's, never more than the movie's.
    static func audioDuration(movie: Double?, tracks: [MP4ChapterTrack], movieTimescale: UInt32?) -> Double? {
        let sound = tracks.filter { $0.handler == "soun" }.compactMap { $0.seconds(movieTimescale: movieTimescale) }.max()
        guard let sound, sound.isFinite, sound > 0 else { return movie }
        guard let movie, movie.isFinite, movie > 0 else { return sound }
        return min(movie, sound)
    }

    /// QuickTime's chapter track is what Apple's players show, so it wins when it names its
    /// chapters; a track of blank or numbered placeholders loses to a Nero list with names.
    static func choose(quickTime: [ChapterTimeline.Mark], nero: [ChapterTimeline.Mark], duration: Double?) -> ChapterList {
        let length = duration ?? 0
        let quickTimeNamed = quickTime.contains { !isPlaceholder($0.title) }
        let neroNamed = nero.contains { !isPlaceholder($0.title) }
        let picked: (ChapterSource, [ChapterTimeline.Mark])?
        if !quickTime.isEmpty && (quickTimeNamed || !neroNamed) {
            picked = (.quicktime, quickTime)
        } else if !nero.isEmpty {
            picked = (.nero, nero)
        } else {
            picked = nil
        }
        if let (source, marks) = picked {
            let chapters = ChapterTimeline.chapters(from: marks, duration: duration)
            if !chapters.isEmpty { return ChapterList(duration: length, source: source, chapters: chapters) }
        }
        return ChapterList(duration: length, source: .none, chapters: ChapterTimeline.wholeFile(title: nil, duration: duration))
    }

    /// Blank, or only a number with an optional generic word: "3", "Chapter 3", "Track 03".
    static func isPlaceholder(_ title: String) -> Bool {
        var words = title.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "." || $0 == ":" })
        if words.isEmpty { return true }
        if ["chapter", "ch", "track", "part", "kapitel", "chapitre", "capítulo"].contains(words[0]) { words.removeFirst() }
        return words.count <= 1 && (words.first?.allSatisfy(\.isNumber) ?? true)
    }

    static func children(of box: MP4Box, in source: some ByteSource) throws(MediaFormatError) -> [MP4Box] {
        try MP4Box.children(of: source, from: box.payloadOffset, to: box.offset + box.size)
    }

    /// The whole payload of a small box.
    static func payload(of box: MP4Box, in source: some ByteSource) throws(MediaFormatError) -> [UInt8] {
        guard box.payloadSize <= maxTableSize else {
            throw MediaFormatError(.malformed, at: box.offset, "box '\(box.type)' of \(box.payloadSize) bytes is too large")
        }
        return try source.readExactly(at: box.payloadOffset, count: box.payloadSize, what: "box '\(box.type)'")
    }
}
