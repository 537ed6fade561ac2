import Foundation

/// Podcasting 2.0's JSON chapters file (`podcast:chapters`, type application/json+chapters):
/// {"version": "1.2.0", "chapters": [{"startTime", "endTime"?, "title"?, "img"?, "url"?, "toc"?}]}.
/// Chapters come out in time order, each ending where the next starts unless it says
/// otherwise; a chapter with no usable start is passed over, the others kept.
public enum JSONChapters {
    public struct Chapter: Sendable, Equatable {
        public var start: Double
        /// Where it ends: its own endTime, else the next chapter's start, else nil (the episode's end).
        public var end: Double?
        public var title: String
        public var image: String?
        public var url: String?
        /// false: not listed in the table of contents (toc: false), still a point in time.
        public var listed: Bool

        public init(start: Double, end: Double? = nil, title: String, image: String? = nil, url: String? = nil, listed: Bool = true) {
            self.start = start
            self.end = end
            self.title = title
            self.image = image
            self.url = url
            self.listed = listed
        }
    }

    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        case unreadable(String)

        public var description: String {
            switch self {
            case .unreadable(let why): "The chapters file cannot be read: \(why)"
            }
        }
    }

    private struct File: Decodable {
        let chapters: [Lossy<Entry>]
    }

    private struct Entry: Decodable {
        let startTime: Double
        let endTime: Double?
        let title: String?
        let img: String?
        let url: String?
        let toc: Bool?
    }

    public static func read(_ bytes: some Collection<UInt8>) throws -> [Chapter] {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(bytes))
        } catch {
            throw ReadError.unreadable("not the Podcasting 2.0 JSON chapters format ({\"chapters\": [{\"startTime\", \"title\"}]})")
        }
        var chapters = file.chapters.compactMap(\.value).filter { $0.startTime.isFinite && $0.startTime >= 0 }.map { entry in
            Chapter(
                start: entry.startTime, end: entry.endTime.flatMap { $0.isFinite && $0 >= entry.startTime ? $0 : nil },
                title: entry.title?.trimmed ?? "", image: entry.img?.trimmed.nilIfEmpty, url: entry.url?.trimmed.nilIfEmpty, listed: entry.toc ?? true)
        }
        chapters = chapters.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        for index in chapters.indices where chapters[index].end == nil && index + 1 < chapters.count {
            chapters[index].end = chapters[index + 1].start
        }
        return chapters
    }
}
