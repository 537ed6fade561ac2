import JukeCore

/// An article as Juke reads it aloud: its title and author, and its text in chapters of
/// paragraphs (headings start chapters), with nothing of the page around it.
public struct Article: Sendable, Equatable, Codable {
    public struct Chapter: Sendable, Equatable, Codable {
        public var title: String
        public var paragraphs: [String]

        public init(title: String, paragraphs: [String]) {
            self.title = title
            self.paragraphs = paragraphs
        }
    }

    public var title: String
    public var author: String?
    public var chapters: [Chapter]

    /// The most text one article may hold: a long novel is 1 to 2 MB of text; what is larger is
    /// refused as too big rather than stored, spoken and sent to every device that opens it.
    public static let maxTextBytes = 32 << 20

    /// Title and author are outside text (a page's `<title>`, a book's metadata, a PDF's Info,
    /// a file's name): cleaned here of control characters and bidirectional overrides, so
    /// every reader's article is stored clean.
    public init(title: String, author: String? = nil, chapters: [Chapter]) {
        self.title = TextRules.cleanedOrNil(title, limit: 500) ?? "Untitled"
        self.author = TextRules.cleanedOrNil(author, limit: 200)
        self.chapters = chapters
    }

    /// A title from a file's name: without its extension, underscores read as spaces, runs of
    /// spaces as one ("quarterly_report  draft.pdf" is "quarterly report draft"); nil when
    /// nothing is left.
    public static func title(fromFileName name: String) -> String? {
        var stem = Substring(name.split(separator: "/").last ?? "")
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
        let words = stem.replacingOccurrences(of: "_", with: " ").split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// All the text, paragraph by paragraph.
    public var paragraphs: [String] { chapters.flatMap(\.paragraphs) }

    /// Words, counted as the runs between spaces (paragraphs have single spaces).
    public var wordCount: Int { paragraphs.reduce(0) { $0 + $1.utf8.split(separator: 0x20).count } }
}

public enum ArticleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No readable text was found (an empty page, an image, a page of links).
    case noText
    /// The document is damaged or not of its kind.
    case unreadable(String)
    /// Reading it would pass one of the reader's budgets (bytes, depth, objects, decompressed
    /// size, time): the words say which, so a person knows what to send instead.
    case tooBig(String)

    public var description: String {
        switch self {
        case .noText: "No readable text was found in it."
        case .unreadable(let why): why
        case .tooBig(let what): "It is too big to read: \(what)."
        }
    }
}
