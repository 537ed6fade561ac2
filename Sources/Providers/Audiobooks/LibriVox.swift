public import Foundation
import JukeCore

/// A LibriVox audiobook: public-domain texts read by volunteers, one MP3 per section.
public struct LibriVoxBook: Sendable, Equatable, Codable {
    public struct Section: Sendable, Equatable, Codable {
        public var number: Int
        public var title: String
        /// The section's MP3 at the Internet Archive.
        public var listenURL: String
        /// Seconds; 0 when LibriVox does not say.
        public var seconds: Int
        public var readers: [String]
    }

    public var id: String
    public var title: String
    public var authors: [String]
    public var description: String?
    public var language: String?
    public var totalSeconds: Int
    public var coverURL: String?
    public var librivoxURL: String?
    public var sections: [Section]
}

public enum LibriVoxError: TransportFailure, Sendable, Equatable {
    case timeout
    case unreachable(String)
    case status(Int)
    case malformed(String)
    case invalid(String)
}

/// LibriVox's catalogue API (`https://librivox.org/api/feed/audiobooks`): `title`, `author`
/// (a leading `^` anchors the match), `id`, `extended=1` for sections and readers,
/// `coverart=1` for the cover, `format=json`, `limit` and `offset`. Numbers often come as
/// strings. "Nothing found" is `{"error": "..."}`, sometimes with HTTP 404.
public struct LibriVox: Sendable {
    public let baseURL: URL
    public var timeout: TimeInterval
    public var userAgent: String
    /// The server's one outbound client (`Platform.http`).
    let http: HTTPClient

    public static let defaultBase = URL(string: "https://librivox.org/api/feed")

    public init(http: HTTPClient, baseURL: URL, timeout: TimeInterval = 15, userAgent: String = "Juke/1.0 (self-hosted music server; Dual Player audiobooks)") {
        self.http = http
        self.baseURL = baseURL
        self.timeout = timeout
        self.userAgent = userAgent
    }

    /// Books whose title (or author's last name) starts with `term`, with their sections.
    public func search(title: String? = nil, author: String? = nil, limit: Int = 20, offset: Int = 0) async throws(LibriVoxError) -> [LibriVoxBook] {
        var items: [URLQueryItem] = []
        if let title = title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty { items.append(.init(name: "title", value: "^" + title)) }
        if let author = author?.trimmingCharacters(in: .whitespacesAndNewlines), !author.isEmpty { items.append(.init(name: "author", value: "^" + author)) }
        guard !items.isEmpty else { throw .invalid("search by title or author") }
        items += [.init(name: "limit", value: String(max(1, min(100, limit)))), .init(name: "offset", value: String(max(0, offset)))]
        return try await books(items)
    }

    /// One book by its LibriVox id, or nil when there is none.
    public func book(id: String) async throws(LibriVoxError) -> LibriVoxBook? {
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else { throw .invalid("a LibriVox id is a number") }
        return try await books([.init(name: "id", value: id)]).first
    }

    private func books(_ query: [URLQueryItem]) async throws(LibriVoxError) -> [LibriVoxBook] {
        var components = URLComponents(url: baseURL.appendingPathComponent("audiobooks"), resolvingAgainstBaseURL: false)
        components?.queryItems = query + [.init(name: "format", value: "json"), .init(name: "extended", value: "1"), .init(name: "coverart", value: "1")]
        guard let url = components?.url else { throw .invalid("bad query") }
        var request = OutboundRequest(url: url)
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        let reply = try await http.send(request, timeout: timeout, failingAs: LibriVoxError.self)
        let object = try? JSONSerialization.jsonObject(with: reply.body)
        if let error = (object as? [String: Any])?["error"] as? String {
            // LibriVox's "No audiobooks found": an empty result, whatever the status.
            if error.lowercased().contains("no audiobooks") { return [] }
            throw .malformed(error)
        }
        guard reply.status == 200 else { throw .status(reply.status) }
        guard let root = object as? [String: Any], let books = root["books"] as? [[String: Any]] else {
            throw .malformed("not a LibriVox book list")
        }
        return books.compactMap(Self.book)
    }

    static func book(_ row: [String: Any]) -> LibriVoxBook? {
        guard let id = string(row["id"]), let title = string(row["title"]) else { return nil }
        let authors = (row["authors"] as? [[String: Any]] ?? []).compactMap { author -> String? in
            let name = [string(author["first_name"]), string(author["last_name"])].compactMap { $0 }.joined(separator: " ")
            return name.isEmpty ? nil : name
        }
        let sections = (row["sections"] as? [[String: Any]] ?? []).compactMap { s -> LibriVoxBook.Section? in
            guard let listen = string(s["listen_url"]).flatMap({ WebAddress($0) })?.text else { return nil }
            let readers = (s["readers"] as? [[String: Any]] ?? []).compactMap { string($0["display_name"]) }
            return LibriVoxBook.Section(
                number: int(s["section_number"]) ?? 0, title: string(s["title"]) ?? "Section \(int(s["section_number"]) ?? 0)", listenURL: listen,
                seconds: int(s["playtime"]) ?? 0, readers: readers)
        }.sorted { $0.number < $1.number }
        return LibriVoxBook(
            id: id, title: title, authors: authors, description: string(row["description"]).map(stripTags), language: string(row["language"]),
            totalSeconds: int(row["totaltimesecs"]) ?? sections.reduce(0) { $0 + $1.seconds },
            coverURL: string(row["coverart_jpg"]) ?? string(row["coverart_thumbnail"]), librivoxURL: string(row["url_librivox"]), sections: sections)
    }

    static func string(_ value: Any?) -> String? {
        let text = (value as? String) ?? (value as? Int).map(String.init)
        return text.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    static func int(_ value: Any?) -> Int? {
        (value as? Int) ?? (value as? String).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? (value as? Double).map { Int($0) }
    }

    /// LibriVox descriptions are HTML fragments; the page shows them as text.
    static func stripTags(_ html: String) -> String {
        var out = ""
        var inTag = false
        for c in html {
            if c == "<" { inTag = true } else if c == ">" { inTag = false } else if !inTag { out.append(c) }
        }
        return out.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#039;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
