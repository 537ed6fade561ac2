public import Foundation
import JukeCore

/// An audiobook on Dual Player's shelf.
public struct BookID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// A book on the shelf: one file on the server with its chapters (read once, when it came).
public struct Book: Sendable, Equatable {
    /// Where it came from: Juke's own spoken demo, an upload, or LibriVox.
    public enum Origin: String, Sendable, Equatable, Codable {
        case demo
        case upload
        case librivox
    }

    /// One chapter: a time range of the file.
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

    /// Whether it plays yet: a LibriVox book is on the shelf while its chapters download.
    public enum Status: String, Sendable, Equatable, Codable {
        case ready
        case downloading
        case failed
    }

    /// A download's progress: chapters fetched of all, bytes so far, and why it stopped.
    public struct Download: Sendable, Equatable, Codable {
        public var sectionsDone: Int
        public var sectionsTotal: Int
        public var bytes: Int64
        public var failure: String?

        public init(sectionsDone: Int, sectionsTotal: Int, bytes: Int64, failure: String? = nil) {
            self.sectionsDone = sectionsDone
            self.sectionsTotal = sectionsTotal
            self.bytes = bytes
            self.failure = failure
        }
    }

    public var id: BookID
    /// nil: on everyone's shelf (the demo, or a book an admin shared).
    public var owner: UserID?
    public var origin: Origin
    public var title: String
    public var author: String?
    /// Its file's key in Juke's media storage (`dual/books/<id>.m4b`), the same on every server.
    public var file: String
    /// The container's format ("mp4", "mp3"), for the Content-Type the player needs.
    public var format: String
    public var duration: Double
    /// quicktime, nero, id3 or none, as the chapter reader said.
    public var chapterSource: String
    public var chapters: [Chapter]
    public var addedAt: Date
    public var status: Status
    public var download: Download?
    /// Its cover's key in the media storage, when it came with one.
    public var coverFile: String?
    /// Its id where it came from (LibriVox's), so it is not fetched twice.
    public var sourceID: String?

    public init(
        id: BookID, owner: UserID?, origin: Origin, title: String, author: String?, file: String, format: String, duration: Double,
        chapterSource: String, chapters: [Chapter], addedAt: Date, status: Status = .ready, download: Download? = nil, coverFile: String? = nil,
        sourceID: String? = nil
    ) {
        self.id = id
        self.owner = owner
        self.origin = origin
        self.title = title
        self.author = author
        self.file = file
        self.format = format
        self.duration = duration
        self.chapterSource = chapterSource
        self.chapters = chapters
        self.addedAt = addedAt
        self.status = status
        self.download = download
        self.coverFile = coverFile
        self.sourceID = sourceID
    }

    /// Whether `user` may see and play it: their own, or everyone's.
    public func isVisible(to user: UserID) -> Bool { owner == nil || owner == user }

    /// Chapter `index`, counted from 0, or not found (saying how many there are).
    public func chapter(at index: Int) throws(RuleRefusal) -> Chapter {
        guard chapters.indices.contains(index) else {
            throw .notFound("“\(title)” has \(chapters.count) chapters, counted from 0; there is no chapter \(index).")
        }
        return chapters[index]
    }
}
