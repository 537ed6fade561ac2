public import Foundation

/// What Juke reads from a podcast or news feed (RSS 2.0, RSS 1.0, Atom 1.0 and 0.3, with the
/// itunes, Podcasting 2.0 and Podlove Simple Chapters namespaces). Text is as published,
/// entities decoded and whitespace trimmed; links are absolute where a base was known.
public struct FeedInfo: Sendable, Equatable, Codable {
    public enum Format: String, Sendable, Codable { case rss, rdf, atom }

    public var format: Format = .rss
    public var title: String?
    public var link: String?
    public var language: String?
    public var description: String?
    public var author: String?
    public var image: String?
    public var explicit: Bool?
    /// itunes:type: "episodic" or "serial".
    public var type: String?
    /// itunes:new-feed-url: the feed has moved there.
    public var newFeedURL: String?
    /// podcast:guid: the show's identity across hosts.
    public var podcastGUID: String?
    /// podcast:locked: the owner forbids importing the feed elsewhere.
    public var locked: Bool?

    public init() {}
}

public struct FeedItem: Sendable, Equatable, Codable {
    public var guid: String?
    public var title: String?
    public var link: String?
    public var published: Date?
    public var enclosure: Enclosure?
    /// Seconds (itunes:duration in any of its forms).
    public var duration: Double?
    public var author: String?
    public var image: String?
    public var explicit: Bool?
    public var episode: Int?
    public var season: Int?
    /// itunes:episodeType: "full", "trailer" or "bonus".
    public var episodeType: String?
    /// Show notes: content:encoded, else description or the summary (at most `FeedReader.maxText`).
    public var summary: String?
    /// podcast:chapters: a JSON chapters file.
    public var chapters: Link?
    public var transcripts: [Transcript] = []
    public var persons: [Person] = []
    /// Podlove Simple Chapters, in the feed itself.
    public var simpleChapters: [SimpleChapter] = []

    public init() {}

    public struct Enclosure: Sendable, Equatable, Codable {
        public var url: String
        public var type: String?
        public var length: Int64?

        public init(url: String, type: String? = nil, length: Int64? = nil) {
            self.url = url
            self.type = type
            self.length = length
        }
    }

    public struct Link: Sendable, Equatable, Codable {
        public var url: String
        public var type: String?
    }

    public struct Transcript: Sendable, Equatable, Codable {
        public var url: String
        public var type: String?
        public var language: String?
        /// "captions" when the file is timed for captions.
        public var rel: String?

        public init(url: String, type: String? = nil, language: String? = nil, rel: String? = nil) {
            self.url = url
            self.type = type
            self.language = language
            self.rel = rel
        }
    }

    public struct Person: Sendable, Equatable, Codable {
        public var name: String
        public var role: String?
        public var group: String?
        public var image: String?
        public var href: String?
    }

    public struct SimpleChapter: Sendable, Equatable, Codable {
        /// Seconds from the start (npt: "01:02:03.500", "62.5").
        public var start: Double
        public var title: String
        public var href: String?
        public var image: String?

        public init(start: Double, title: String, href: String? = nil, image: String? = nil) {
            self.start = start
            self.title = title
            self.href = href
            self.image = image
        }
    }
}

/// A whole feed, read at once (`FeedReader.parse`).
public struct Feed: Sendable, Equatable {
    public var info: FeedInfo
    public var items: [FeedItem]
}

public enum FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document is not a feed: its first element names something else (an HTML page).
    case notAFeed(String)
    /// No element at all.
    case empty

    public var description: String {
        switch self {
        case .notAFeed(let root): "Not a feed: the document is <\(root)>, not RSS or Atom."
        case .empty: "Not a feed: the document has no XML in it."
        }
    }
}
