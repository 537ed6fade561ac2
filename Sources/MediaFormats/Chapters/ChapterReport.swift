/// One file's chapters as `juke chapters --json` prints them:
/// `{"file", "duration", "source", "chapters": [{"title", "start", "end"}]}`.
public struct ChapterReport: Encodable, Sendable {
    public let file: String
    public let duration: Double
    public let source: String
    public let chapters: [Chapter]

    public init(file: String, list: ChapterList) {
        self.file = file
        self.duration = list.duration
        self.source = list.source.rawValue
        self.chapters = list.chapters
    }
}
