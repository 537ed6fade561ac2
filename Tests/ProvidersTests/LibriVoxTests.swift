import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import Providers

/// LibriVox against a local fake speaking its JSON: numbers as strings, HTML descriptions,
/// "No audiobooks found" as an error object with 404, an HTML error page, a slow server.
@Suite(.timeLimit(.minutes(5))) struct LibriVoxTests {
    static var frankenstein: [String: Any] {
        [
            "id": "47", "title": "Frankenstein, or the Modern Prometheus", "description": "<p>Mary Shelley&#039;s novel &amp; more.</p>",
            "language": "English", "copyright_year": "1818", "num_sections": "3", "url_librivox": "https://librivox.org/frankenstein-by-mary-shelley/",
            "totaltime": "0:35:01", "totaltimesecs": 2101,
            "authors": [["id": "93", "first_name": "Mary", "last_name": "Shelley", "dob": "1797", "dod": "1851"]],
            "coverart_jpg": "https://archive.org/download/frankenstein_shelley/frankenstein_1101.jpg",
            "sections": [
                [
                    "id": "2", "section_number": "2", "title": "Letter 2",
                    "listen_url": "http://www.archive.org/download/frankenstein_shelley/frankenstein_02_shelley_64kb.mp3",
                    "playtime": "700", "readers": [["reader_id": "1", "display_name": "Cori Samuel"]],
                ],
                [
                    "id": "1", "section_number": "1", "title": "Letter 1",
                    "listen_url": "http://www.archive.org/download/frankenstein_shelley/frankenstein_01_shelley_64kb.mp3", "playtime": 618,
                ],
                ["id": "3", "section_number": "3", "title": "Bad", "listen_url": "file:///etc/passwd", "playtime": "10"],
            ],
        ]
    }

    static func fake() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/api/feed/audiobooks") { request, _ -> Response in
            let q = request.uri.queryParameters
            #expect(q.get("format") == "json" && q.get("extended") == "1")
            #expect(request.headers[.userAgent]?.hasPrefix("Juke/") == true)
            switch q.get("title") ?? q.get("id") ?? q.get("author") ?? "" {
            case "^Frankenstein", "47", "^Shelley": return CatalogTests.json(200, ["books": [frankenstein]])
            case "^Nothing", "999": return CatalogTests.json(404, ["error": "No audiobooks found with these criteria"])
            case "^Broken": return Response(status: .badGateway, body: .init(byteBuffer: ByteBuffer(string: "<html>Bad Gateway</html>")))
            case "^Slow":
                try await Task.sleep(for: .seconds(3))
                return CatalogTests.json(200, ["books": []])
            default: return CatalogTests.json(200, ["books": "not a list"])
            }
        }
        return router
    }

    static func withFake(timeout: TimeInterval = 5, _ body: @escaping @Sendable (LibriVox) async throws -> Void) async throws {
        try await CatalogTests.serve(fake()) { base in
            let port = try #require(base.port)
            try await body(LibriVox(http: .tests, baseURL: try #require(URL(string: "http://127.0.0.1:\(port)/api/feed")), timeout: timeout))
        }
    }

    @Test func aSearchReadsBooksWithTheirSectionsInOrder() async throws {
        try await Self.withFake { librivox in
            let books = try await librivox.search(title: "Frankenstein")
            let book = try #require(books.first)
            #expect(book.id == "47" && book.authors == ["Mary Shelley"] && book.totalSeconds == 2101)
            #expect(book.description == "Mary Shelley's novel & more.")
            #expect(book.coverURL?.hasSuffix("frankenstein_1101.jpg") == true)
            #expect(book.sections.map(\.title) == ["Letter 1", "Letter 2"], "sorted by number; a non-http listen URL is dropped")
            #expect(book.sections.map(\.seconds) == [618, 700])
            #expect(book.sections[1].readers == ["Cori Samuel"])
            let byAuthor = try await librivox.search(author: "Shelley")
            #expect(byAuthor.count == 1)
            let byID = try await librivox.book(id: "47")
            #expect(byID?.title == "Frankenstein, or the Modern Prometheus")
        }
    }

    @Test func nothingFoundIsAnEmptyResultNotAnError() async throws {
        try await Self.withFake { librivox in
            let found = try await librivox.search(title: "Nothing")
            #expect(found.isEmpty)
            let missing = try await librivox.book(id: "999")
            #expect(missing == nil)
        }
    }

    @Test func damagedAnswersAreClearErrors() async throws {
        // A generous deadline for the answers that come at once (the whole suite shares two
        // cores), a short one for the server that answers after 3 s.
        try await Self.withFake(timeout: 20) { librivox in
            await #expect(throws: LibriVoxError.status(502)) { try await librivox.search(title: "Broken") }
            await #expect(throws: LibriVoxError.malformed("not a LibriVox book list")) { try await librivox.search(title: "Other") }
            var impatient = librivox
            impatient.timeout = 1
            await #expect(throws: LibriVoxError.timeout) { try await impatient.search(title: "Slow") }
            await #expect(throws: LibriVoxError.invalid("search by title or author")) { try await librivox.search(title: "  ") }
            await #expect(throws: LibriVoxError.invalid("a LibriVox id is a number")) { try await librivox.book(id: "47; drop") }
        }
    }

    @Test func anUnreachableServerIsSaidSo() async throws {
        let librivox = LibriVox(http: .tests, baseURL: try #require(URL(string: "http://127.0.0.1:1/api/feed")), timeout: 3)
        do {
            _ = try await librivox.search(title: "x")
            Issue.record("nothing listens on port 1")
        } catch {
            if case .unreachable = error {} else { Issue.record("\(error)") }
        }
    }
}
