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

    public var id: BookID
    /// nil: on everyone's shelf (the demo, or a book an admin shared).
    public var owner: UserID?
    public var origin: Origin
    public var title: String
    public var author: String?
    public var path: String
    /// The container's format ("mp4", "mp3"), for the Content-Type the player needs.
    public var format: String
    public var duration: Double
    /// quicktime, nero, id3 or none, as the chapter reader said.
    public var chapterSource: String
    public var chapters: [Chapter]
    public var addedAt: Date

    public init(
        id: BookID, owner: UserID?, origin: Origin, title: String, author: String?, path: String, format: String, duration: Double,
        chapterSource: String, chapters: [Chapter], addedAt: Date
    ) {
        self.id = id
        self.owner = owner
        self.origin = origin
        self.title = title
        self.author = author
        self.path = path
        self.format = format
        self.duration = duration
        self.chapterSource = chapterSource
        self.chapters = chapters
        self.addedAt = addedAt
    }

    /// Whether `user` may see and play it: their own, or everyone's.
    public func isVisible(to user: UserID) -> Bool { owner == nil || owner == user }
}
