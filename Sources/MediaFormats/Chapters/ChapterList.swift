/// One chapter of a book or episode: where it starts and ends in the file, in seconds.
public struct Chapter: Sendable, Equatable, Codable {
    public var title: String
    public var start: Double
    public var end: Double

    public init(title: String, start: Double, end: Double) {
        self.title = title
        self.start = start
        self.end = end
    }
}

/// Where a file's chapters were read from.
public enum ChapterSource: String, Sendable, Equatable, Codable, CaseIterable {
    /// The QuickTime chapter track: a text track that the audio track names in `tref/chap`.
    case quicktime
    /// Nero's `moov/udta/chpl` list, which Apple's players ignore.
    case nero
    /// ID3v2 CHAP frames, ordered by a top-level CTOC when there is one.
    case id3
    /// The file declares no chapters: one chapter spans the whole file.
    case none
}

/// The chapters Juke reads from one file, with the container's duration.
public struct ChapterList: Sendable, Equatable {
    /// Seconds, from the container's header (never by decoding the audio); 0 when unknown.
    public var duration: Double
    public var source: ChapterSource
    public var chapters: [Chapter]

    public init(duration: Double, source: ChapterSource, chapters: [Chapter]) {
        self.duration = duration
        self.source = source
        self.chapters = chapters
    }
}
