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

    public init(title: String, author: String? = nil, chapters: [Chapter]) {
        self.title = title
        self.author = author
        self.chapters = chapters
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

    public var description: String {
        switch self {
        case .noText: "No readable text was found in it."
        case .unreadable(let why): why
        }
    }
}
