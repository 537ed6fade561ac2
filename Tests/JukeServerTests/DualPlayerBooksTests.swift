import DualPlayer
import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import NIOCore
import Testing

@testable import DualPlayerServer
@testable import JukePlatform
@testable import JukeServer
@testable import MediaFormats

/// Dual Player's shelf: who sees which book, its audio with Range, and the spoken demo
/// audiobook made by espeak-ng and ffmpeg with both chapter lists.
@Suite(.timeLimit(.minutes(5))) struct DualPlayerBooksTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MediaFormatsTests/Fixtures/chapters/both.m4b")

    static func book(owner: UserID?, title: String, path: String) -> Book {
        Book(
            id: BookID(rawValue: UUID()), owner: owner, origin: owner == nil ? .demo : .upload, title: title, author: "Someone", path: path,
            format: "mp4", duration: 6, chapterSource: "quicktime",
            chapters: [Book.Chapter(title: "One", start: 0, end: 3), Book.Chapter(title: "Two", start: 3, end: 6)], addedAt: Date())
    }

    @Test(arguments: TestBackend.available)
    func eachAccountSeesEveryonesBooksAndItsOwn(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let ann = try await client.register("ann")
            let bob = try await client.register("bob")
            let annID = try #require(try await app.services.users.credentials(username: "ann")?.user.id)
            let books = app.services.dualPlayerApp.service.books
            let shared = Self.book(owner: nil, title: "Everyone's", path: Self.fixture.path)
            let annsOwn = Self.book(owner: annID, title: "Ann's", path: Self.fixture.path)
            try await books.add(shared)
            try await books.add(annsOwn)

            let annShelf = try await client.json(.get, "/api/v1/dual/books", token: ann)
            let titles = (annShelf.json["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            #expect(Set(titles) == ["Everyone's", "Ann's"])
            let first = try #require((annShelf.json["items"] as? [[String: Any]])?.first)
            #expect((first["chapters"] as? [[String: Any]])?.count == 2)
            #expect((first["audio_url"] as? String)?.hasPrefix("/api/v1/dual/books/") == true)
            let bobShelf = try await client.json(.get, "/api/v1/dual/books", token: bob)
            #expect((bobShelf.json["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String } == ["Everyone's"])

            // The audio, whole and by range, for whoever may see the book, and for nobody else.
            let whole = try await client.json(.get, "/api/v1/dual/books/\(annsOwn.id)/audio", token: ann)
            #expect(whole.status == .ok && whole.headers[.contentType] == "audio/mp4")
            #expect(whole.raw.readableBytes == (try Data(contentsOf: Self.fixture)).count)
            let range = try await client.json(.get, "/api/v1/dual/books/\(annsOwn.id)/audio", token: ann, headers: [.range: "bytes=0-99"])
            #expect(range.status == .partialContent && range.raw.readableBytes == 100)
            #expect(try await client.json(.get, "/api/v1/dual/books/\(annsOwn.id)/audio", token: bob).status == .notFound)
            #expect(try await client.json(.get, "/api/v1/dual/books/\(shared.id)/audio", token: bob).status == .ok)
            #expect(try await client.json(.get, "/api/v1/dual/books/not-a-book/audio", token: bob).status == .badRequest)
            #expect(try await client.json(.get, "/api/v1/dual/books/\(shared.id)/audio").status == .unauthorized)
        }
    }

    static var toolsInstalled: Bool {
        if case .success = DemoBookMaker.find() { return true }
        return false
    }

    @Test(.enabled(if: toolsInstalled, "needs espeak-ng and ffmpeg (Scripts/test.sh installs them)"))
    func theSpokenDemoHasFourChaptersInBothLists() throws {
        guard case .success(let maker) = DemoBookMaker.find() else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("demo.m4b").path
        try maker.write(to: path)
        let list = try ChapterReader.read(path: path)
        #expect(list.source == .quicktime)
        #expect(list.chapters.map(\.title) == DemoBookText.chapters.map(\.title))
        #expect(list.duration > 30, "four fables read aloud")
        #expect(list.chapters.last?.end == list.duration)
        // ffmpeg wrote Nero's list too: the same chapters from chpl alone.
        let source = try FileSource(path: path)
        let top = try MP4Box.children(of: source, from: 0, to: source.size)
        let moov = try #require(top.first { $0.type == "moov" })
        let udta = try #require(try MP4ChapterReader.children(of: moov, in: source).first { $0.type == "udta" })
        let chpl = try #require(try MP4ChapterReader.children(of: udta, in: source).first { $0.type == "chpl" })
        let nero = try NeroChapters.parse(try MP4ChapterReader.payload(of: chpl, in: source), offset: chpl.payloadOffset)
        #expect(nero.map(\.title) == DemoBookText.chapters.map(\.title))
        let tags = try TagReader.read(path: path)
        #expect(tags.title == DemoBookText.title && tags.genre == "Audiobook")
    }

    @Test func missingToolsAreNamed() {
        guard case .failure(let missing) = DemoBookMaker.find(environment: ["PATH": "/nonexistent"]) else {
            Issue.record("no tools on an empty PATH")
            return
        }
        #expect(missing.description == "espeak-ng and ffmpeg are not installed")
    }
}
