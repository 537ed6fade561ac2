public import Foundation
import JukeCore

public struct ArticleID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Where reading an article stopped: a chapter and the word in it (the browser's voice reads
/// from any word; the server's audio from the sentence holding it).
public struct ArticlePosition: Sendable, Equatable, Codable {
    public var chapter: Int
    public var word: Int
    /// The device's time, in milliseconds since 1970: the newest wins across devices.
    public var updatedAt: Int64

    public init(chapter: Int, word: Int, updatedAt: Int64) {
        self.chapter = chapter
        self.word = word
        self.updatedAt = updatedAt
    }

    /// A position a page sent, within an article of `chapters` chapters.
    public static func validated(chapter: Int, word: Int, updatedAt: Int64, chapters: Int) throws(RuleRefusal) -> ArticlePosition {
        guard (0..<max(1, chapters)).contains(chapter) else { throw .invalid("chapter", "the article has \(chapters) chapters, counted from 0") }
        guard word >= 0, word <= 10_000_000 else { throw .invalid("word", "a word is counted from 0 in its chapter") }
        guard updatedAt >= 0 else { throw .invalid("updated_at", "updated_at is milliseconds since 1970") }
        return ArticlePosition(chapter: chapter, word: word, updatedAt: updatedAt)
    }
}

/// An article spoken on the server (espeak-ng): one audio file with a chapter per chapter and
/// a cue per sentence, each knowing its chapter and its first word (so listening moves the
/// reading position, and reading moves the listening).
public struct ArticleSpeech: Sendable, Equatable, Codable {
    public enum Status: String, Sendable, Codable {
        case making
        case ready
        case failed
    }

    public struct Cue: Sendable, Equatable, Codable {
        public var start: Double
        public var end: Double
        public var text: String
        public var chapter: Int
        public var word: Int

        public init(start: Double, end: Double, text: String, chapter: Int, word: Int) {
            self.start = start
            self.end = end
            self.text = text
            self.chapter = chapter
            self.word = word
        }
    }

    public var status: Status
    /// Sentences spoken of all, while making.
    public var done: Int
    public var total: Int
    /// The spoken audio's key in Juke's media storage, once made.
    public var file: String?
    public var duration: Double
    public var chapters: [Book.Chapter]
    public var cues: [Cue]
    public var failure: String?

    public init(
        status: Status, done: Int = 0, total: Int = 0, file: String? = nil, duration: Double = 0, chapters: [Book.Chapter] = [], cues: [Cue] = [],
        failure: String? = nil
    ) {
        self.status = status
        self.done = done
        self.total = total
        self.file = file
        self.duration = duration
        self.chapters = chapters
        self.cues = cues
        self.failure = failure
    }
}
