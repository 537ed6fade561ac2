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

    enum Fixtures {
        static func tagged(_ name: String) throws -> URL {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("MediaFormatsTests/Fixtures/\(name)")
        }
    }

    static func book(owner: UserID?, title: String, file: String) -> Book {
        Book(
            id: BookID(rawValue: UUID()), owner: owner, origin: .upload, title: title, author: "Someone", file: file,
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
            // The fixture, stored as an upload is (in the data folder, under a key).
            let key = "dual/books/fixture.m4b"
            try FileManager.default.createDirectory(atPath: Self.booksFolder(app), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Self.fixture.path, toPath: app.services.configuration.dataDirectory + "/" + key)
            let shared = Self.book(owner: nil, title: "Everyone's", file: key)
            let annsOwn = Self.book(owner: annID, title: "Ann's", file: key)
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

            // The shelf says where each reader is in a book: the position saved last of the
            // book's keys (its chapters' too), capped at its length; null before it is played.
            #expect((annShelf.json["items"] as? [[String: Any]] ?? []).allSatisfy { ($0["listened"] ?? NSNull()) is NSNull })
            let positions =
                #"{"positions":[{"item":"book:\#(shared.id)#0","seconds":1.5,"updated_at":1000},"#
                + #"{"item":"book:\#(shared.id)#1","seconds":4.25,"updated_at":2000},{"item":"book:\#(annsOwn.id)","seconds":99,"updated_at":1000}]}"#
            #expect(try await client.json(.put, "/api/v1/dual/positions", token: ann, body: positions).status == .ok)
            let listened = Dictionary(
                uniqueKeysWithValues: (try await client.json(.get, "/api/v1/dual/books", token: ann).json["items"] as? [[String: Any]] ?? []).compactMap {
                    item -> (String, Double)? in
                    guard let title = item["title"] as? String, let at = (item["listened"] as? [String: Any])?["position"] as? Double else { return nil }
                    return (title, at)
                })
            #expect(listened == ["Everyone's": 4.25, "Ann's": 6], "the newest key wins; a position past the end is the end")
            let bobsBooks = try await client.json(.get, "/api/v1/dual/books", token: bob).json["items"] as? [[String: Any]] ?? []
            #expect(bobsBooks.allSatisfy { ($0["listened"] ?? NSNull()) is NSNull }, "another reader's place is their own")

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

    static func upload(_ client: any TestClientProtocol, _ bytes: [UInt8], filename: String, token: String, share: Bool = false) async throws
        -> (status: HTTPResponse.Status, json: [String: Any])
    {
        let name = filename.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? filename
        let response = try await client.execute(
            uri: "/api/v1/dual/books?filename=\(name)&share=\(share)", method: .post,
            headers: [.authorization: "Bearer \(token)", .contentType: "application/octet-stream"], body: ByteBuffer(bytes: bytes))
        return (response.status, (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:])
    }

    static func booksFolder(_ app: TestApp) -> String { app.services.configuration.dataDirectory + "/dual/books" }

    static func files(in folder: String) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] }

    @Test(arguments: TestBackend.available)
    func anUploadedBookIsReadAndShelvedAndABadOneLeavesNothing(backend: TestBackend) async throws {
        try await TestApp.run(backend, configure: { $0.maxUploadSize = 100_000 }) { app, client in
            let admin = try await client.register("admin")
            let ann = try await client.register("ann")
            let bob = try await client.register("bob")
            let bytes = [UInt8](try Data(contentsOf: Self.fixture))

            let added = try await Self.upload(client, bytes, filename: "Small Book.m4b", token: ann)
            #expect(added.status == .created, "\(added.json)")
            #expect(added.json["title"] as? String == "A Small Book" && added.json["author"] as? String == "Juke Tests")
            #expect((added.json["chapters"] as? [[String: Any]])?.count == 4 && added.json["chapter_source"] as? String == "quicktime")
            #expect(added.json["yours"] as? Bool == true && added.json["shared"] as? Bool == false)
            let id = try #require(added.json["id"] as? String)
            #expect(Self.files(in: Self.booksFolder(app)).count == 1)
            let audio = try await client.json(.get, "/api/v1/dual/books/\(id)/audio", token: ann)
            #expect(audio.status == .ok && audio.raw.readableBytes == bytes.count)
            #expect((try await client.json(.get, "/api/v1/dual/books", token: bob).json["items"] as? [[String: Any]])?.isEmpty == true)

            // Refused: not audio, a format that is not a book's, empty, too large, sharing by a non-admin.
            #expect(try await Self.upload(client, Array("not audio at all".utf8), filename: "x.m4b", token: ann).status == .unprocessableContent)
            let flac = [UInt8](try Data(contentsOf: try Fixtures.tagged("tagged.flac")))
            #expect(try await Self.upload(client, flac, filename: "x.flac", token: ann).status == .unprocessableContent)
            #expect(try await Self.upload(client, flac, filename: "x.mp3", token: ann).status == .unprocessableContent)
            #expect(try await Self.upload(client, [], filename: "x.mp3", token: ann).status == .unprocessableContent)
            let huge = [UInt8](repeating: 0, count: 100_001)
            #expect(try await Self.upload(client, huge, filename: "big.m4b", token: ann).status == .contentTooLarge)
            #expect(try await Self.upload(client, bytes, filename: "x.m4b", token: ann, share: true).status == .forbidden)
            #expect(Self.files(in: Self.booksFolder(app)).count == 1, "nothing refused is left on disk")

            // An admin shares one; everyone sees it; only the admin removes it.
            let shared = try await Self.upload(client, bytes, filename: "Shared.m4b", token: admin, share: true)
            #expect(shared.status == .created && shared.json["shared"] as? Bool == true)
            let sharedID = try #require(shared.json["id"] as? String)
            #expect((try await client.json(.get, "/api/v1/dual/books", token: bob).json["items"] as? [[String: Any]])?.count == 1)
            #expect(try await client.json(.delete, "/api/v1/dual/books/\(sharedID)", token: bob).status == .forbidden)
            #expect(try await client.json(.delete, "/api/v1/dual/books/\(id)", token: bob).status == .notFound)
            #expect(try await client.json(.delete, "/api/v1/dual/books/\(id)", token: ann).status == .noContent)
            #expect(try await client.json(.delete, "/api/v1/dual/books/\(sharedID)", token: admin).status == .noContent)
            #expect(Self.files(in: Self.booksFolder(app)).isEmpty, "a removed book's file goes with it")
            #expect(try await client.json(.get, "/api/v1/dual/books/\(id)/audio", token: ann).status == .notFound)
        }
    }

    static var toolsInstalled: Bool {
        if case .success = DemoBookMaker.find() { return true }
        return false
    }

    /// A chapter as a file of its own, for a phone to keep one chapter of a book: cut without
    /// re-encoding to the chapter's length, in the book's container, with Range once cut;
    /// HEAD cuts nothing; a chapter past the last, or a book one may not see, is not found.
    @Test(arguments: TestBackend.available)
    func aChapterIsCutOutAsAFileOfItsOwn(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let ann = try await client.register("ann")
            let bob = try await client.register("bob")
            let chapters = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("MediaFormatsTests/Fixtures/chapters")
            for (file, type) in [("both.m4b", "audio/mp4"), ("chapters.mp3", "audio/mpeg")] {
                let bytes = [UInt8](try Data(contentsOf: chapters.appendingPathComponent(file)))
                let added = try await Self.upload(client, bytes, filename: file, token: ann)
                #expect(added.status == .created, "\(added.json)")
                let id = try #require(added.json["id"] as? String)
                let transcoder = try #require(app.services.platform.transcoder)
                let cachedBefore = await transcoder.counts().cachedBytes

                // HEAD says what a GET would get, and cuts nothing.
                let head = try await client.json(.head, "/api/v1/dual/books/\(id)/chapters/1/audio", token: ann)
                #expect(head.status == .ok && head.headers[.contentType] == type)
                #expect(await transcoder.counts().cachedBytes == cachedBefore, "HEAD cut the chapter")

                // "Der Sturm" runs from 1.5 s to 3.2 s of the book.
                let cut = try await client.json(.get, "/api/v1/dual/books/\(id)/chapters/1/audio", token: ann)
                #expect(cut.status == .ok && cut.headers[.contentType] == type && cut.headers[.acceptRanges] == "bytes")
                #expect(cut.raw.readableBytes > 0 && cut.raw.readableBytes < bytes.count / 2, "\(cut.raw.readableBytes) of \(bytes.count)")
                let kept = FileManager.default.temporaryDirectory.appendingPathComponent("chapter-\(UUID()).\(type == "audio/mp4" ? "m4a" : "mp3")")
                try Data(buffer: cut.raw).write(to: kept)
                defer { try? FileManager.default.removeItem(at: kept) }
                let length = try ChapterReader.read(path: kept.path).duration
                #expect(abs(length - 1.7) < 0.15, "\(file): the chapter is \(length) s long")
                #expect(try ChapterReader.read(path: kept.path).chapters.count <= 1, "the book's chapter list is not carried into a chapter")
                #expect(await transcoder.counts().cachedBytes > cachedBefore, "the cut is kept for the next request")

                // Cut once, it is a file: Range and ETag.
                let range = try await client.json(.get, "/api/v1/dual/books/\(id)/chapters/1/audio", token: ann, headers: [.range: "bytes=0-99"])
                #expect(range.status == .partialContent && range.raw.readableBytes == 100)
                let etag = try #require(cut.headers[.eTag])
                #expect(
                    try await client.json(.get, "/api/v1/dual/books/\(id)/chapters/1/audio", token: ann, headers: [.ifNoneMatch: etag]).status == .notModified)

                // Refused: past the last chapter, not a number, another account's book, no sign-in.
                #expect(try await client.json(.get, "/api/v1/dual/books/\(id)/chapters/4/audio", token: ann).status == .notFound)
                #expect(try await client.json(.get, "/api/v1/dual/books/\(id)/chapters/-1/audio", token: ann).status == .badRequest)
                #expect(try await client.json(.get, "/api/v1/dual/books/\(id)/chapters/one/audio", token: ann).status == .badRequest)
                #expect(try await client.json(.get, "/api/v1/dual/books/\(id)/chapters/1/audio", token: bob).status == .notFound)
                #expect(try await client.json(.get, "/api/v1/dual/books/\(id)/chapters/1/audio").status == .unauthorized)
            }
        }
    }

    /// With no ffmpeg a chapter cannot be cut: the page is told to keep the whole book.
    @Test(arguments: TestBackend.available)
    func withoutFfmpegAChapterIsNotPlayableHere(backend: TestBackend) async throws {
        try await TestApp.run(backend, configure: { $0.transcoding = nil }) { _, client in
            let ann = try await client.register("ann")
            let added = try await Self.upload(client, [UInt8](try Data(contentsOf: Self.fixture)), filename: "both.m4b", token: ann)
            let id = try #require(added.json["id"] as? String)
            let refused = try await client.json(.get, "/api/v1/dual/books/\(id)/chapters/0/audio", token: ann)
            #expect(refused.status == .notAcceptable && (refused.json["message"] as? String)?.contains("whole book") == true)
            #expect(try await client.json(.get, "/api/v1/dual/books/\(id)/audio", token: ann).status == .ok)
        }
    }

    @Test(.enabled(if: toolsInstalled, "needs espeak-ng and ffmpeg (Scripts/test.sh installs them)"))
    func theSpokenDemoHasFourChaptersInBothLists() async throws {
        // The tools are installed (the trait says so): not finding them fails, as it would in the server.
        let maker = try DemoBookMaker.find().get()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("demo.m4b").path
        try await maker.write(to: path)
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
