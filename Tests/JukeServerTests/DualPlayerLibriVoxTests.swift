import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JukeTestSupport
import MediaFormats
import NIOCore
import Synchronization
import Testing

@testable import DualPlayerServer
@testable import JukePlatform
@testable import JukeServer

/// LibriVox on the shelf, against a local fake of LibriVox's API and of the Internet
/// Archive's files: search with chapters, a book downloaded section by section with its
/// progress and cover, a connection cut mid-chapter resumed from its last byte, the sections
/// joined into one MP3 whose chapters Juke's own reader finds, and removal.
@Suite(.timeLimit(.minutes(5))) struct DualPlayerLibriVoxTests {
    final class Archive: Sendable {
        /// Range headers the archive was asked with, per file.
        let ranges = Mutex<[String: [String]]>([:])
        /// Cut the next download of section 2 halfway.
        let cutSectionTwo = Atomic<Bool>(true)
        /// Times the cover was asked for.
        let covers = Atomic<Int>(0)
    }

    /// A section: an ID3 tag, then `frames` MPEG frames (128 kbit/s, 44.1 kHz: 417 bytes,
    /// about 26 ms each), with a constant bitrate the reader measures without decoding.
    static func section(_ number: Int, frames: Int) -> [UInt8] {
        var tag = ID3v2Writer()
        tag.text("TIT2", "Section \(number)")
        return tag.encode() + FakeStation.mpegBytes(417 * frames, from: 0)
    }

    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 100)

    static func fake(_ archive: Archive) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/api/feed/audiobooks") { request, _ -> Response in
            let q = request.uri.queryParameters
            let base = "http://\(request.head.authority ?? "127.0.0.1")"
            let book: [String: Any] = [
                "id": "47", "title": "Frankenstein", "description": "<p>Letters &amp; more.</p>", "language": "English",
                "totaltimesecs": "16", "url_librivox": "https://librivox.org/frankenstein/",
                "authors": [["first_name": "Mary", "last_name": "Shelley"]], "coverart_jpg": "\(base)/cover.jpg",
                "sections": (1...3).map { n in
                    [
                        "section_number": "\(n)", "title": "Letter \(n)", "listen_url": "\(base)/download/letter\(n).mp3", "playtime": "5",
                        "readers": [["display_name": "Cori Samuel"]],
                    ] as [String: Any]
                },
            ]
            switch q.get("title") ?? q.get("id") ?? "" {
            case "^Frankenstein", "47": return json(["books": [book]])
            default: return json(["error": "No audiobooks found with these criteria"], status: .notFound)
            }
        }
        router.get("/cover.jpg") { _, _ in
            archive.covers.add(1, ordering: .relaxed)
            return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
        }
        router.get("/download/:file") { request, context -> Response in
            let file = context.parameters.get("file") ?? ""
            guard let number = Int(file.dropLast(4).filter(\.isNumber)), (1...3).contains(number) else { return Response(status: .notFound) }
            let bytes = section(number, frames: 150 + 20 * number)
            let range = request.headers[.range]
            archive.ranges.withLock { $0[file, default: []].append(range ?? "") }
            if number == 1 { try await Task.sleep(for: .milliseconds(300)) }  // slow enough to see "downloading"
            var from = 0
            if let range, range.hasPrefix("bytes="), let start = Int(range.dropFirst(6).prefix { $0 != "-" }) { from = start }
            let body = Array(bytes[from...])
            var headers: HTTPFields = [.contentType: "audio/mpeg", .contentLength: String(body.count)]
            if from > 0 { headers[.contentRange] = "bytes \(from)-\(bytes.count - 1)/\(bytes.count)" }
            if number == 2, archive.cutSectionTwo.exchange(false, ordering: .relaxed) {
                // Half the file, then the connection drops.
                let half = ByteBuffer(bytes: body[..<(body.count / 2)])
                return Response(
                    status: .ok, headers: headers,
                    body: ResponseBody { writer in
                        try await writer.write(half)
                        try await Task.sleep(for: .milliseconds(100))
                        throw CancellationError()
                    })
            }
            return Response(status: from > 0 ? .partialContent : .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        return router
    }

    static func json(_ object: Any, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Polls the shelf until `book` has `status`.
    static func waitFor(_ status: String, book id: String, client: any TestClientProtocol, token: String) async throws -> [String: Any] {
        // Up to two minutes: a busy machine is slow, and a failure still says what was seen.
        for _ in 0..<1200 {
            let shelf = try await client.json(.get, "/api/v1/dual/books", token: token)
            if let book = (shelf.json["items"] as? [[String: Any]])?.first(where: { $0["id"] as? String == id }), book["status"] as? String == status {
                return book
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the book never became \(status)")
        return [:]
    }

    @Test(arguments: TestBackend.available)
    func aBookIsFoundDownloadedResumedJoinedAndRemoved(backend: TestBackend) async throws {
        let archive = Archive()
        let fake = Application(router: Self.fake(archive), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await fake.test(.live) { fakeClient in
            let port = try #require(fakeClient.port)
            // The fake archive is on loopback: this server is told it may fetch there.
            try await TestApp.run(
                backend,
                configure: {
                    $0.groups[DualPlayerSettings.self].libriVoxURL = URL(string: "http://127.0.0.1:\(port)/api/feed")
                    $0.groups[DualPlayerSettings.self].webAllowPrivateNetworks = true
                }
            ) { app, client in
                let ann = try await client.register("ann")
                let found = try await client.json(.get, "/api/v1/dual/librivox/search?title=Frankenstein", token: ann)
                let hit = try #require((found.json["items"] as? [[String: Any]])?.first, "\(found.json)")
                #expect(hit["id"] as? String == "47" && hit["authors"] as? [String] == ["Mary Shelley"])
                #expect((hit["sections"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Letter 1", "Letter 2", "Letter 3"])
                #expect(try await client.json(.get, "/api/v1/dual/librivox/search", token: ann).status == .badRequest)
                #expect((try await client.json(.get, "/api/v1/dual/librivox/search?title=Nothing", token: ann).json["items"] as? [Any])?.isEmpty == true)

                let added = try await client.json(.post, "/api/v1/dual/librivox/books/47", token: ann)
                #expect(added.status == .accepted && added.json["status"] as? String == "downloading", "\(added.json)")
                let id = try #require(added.json["id"] as? String)
                #expect(try await client.json(.get, "/api/v1/dual/books/\(id)/audio", token: ann).status == .conflict, "not playable yet")
                #expect(try await client.json(.post, "/api/v1/dual/librivox/books/47", token: ann).status == .ok, "once per shelf")

                // Section 2's connection is cut halfway: the download stops and says why.
                let failed = try await Self.waitFor("failed", book: id, client: client, token: ann)
                let progress = try #require(failed["download"] as? [String: Any])
                #expect(progress["sections_done"] as? Int == 1 && progress["sections_total"] as? Int == 3 && progress["failure"] is String, "\(progress)")

                // Resumed: section 1 is not fetched again, section 2 carries on from its last byte.
                #expect(try await client.json(.post, "/api/v1/dual/books/\(id)/resume", token: ann).status == .accepted)
                let ready = try await Self.waitFor("ready", book: id, client: client, token: ann)
                let ranges = archive.ranges.withLock { $0 }
                #expect(ranges["letter1.mp3"] == [""], "\(ranges)")
                let resumedFrom = try #require(ranges["letter2.mp3"]?.last)
                #expect(ranges["letter2.mp3"]?.count == 2 && resumedFrom.hasPrefix("bytes=") && resumedFrom != "bytes=0-", "\(ranges)")

                // One MP3 with a chapter per section, read back by Juke's own reader.
                #expect(ready["chapter_source"] as? String == "id3")
                let chapters = try #require(ready["chapters"] as? [[String: Any]])
                #expect(chapters.map { $0["title"] as? String } == ["Letter 1", "Letter 2", "Letter 3"])
                let frames = [170, 190, 210].map { Double($0) * 417 * 8 / 128_000 }
                #expect(abs((chapters[1]["start"] as? Double ?? 0) - frames[0]) < 0.1, "\(chapters)")
                #expect(abs((ready["duration"] as? Double ?? 0) - frames.reduce(0, +)) < 0.2)
                let audio = try await client.json(.get, "/api/v1/dual/books/\(id)/audio", token: ann)
                #expect(audio.status == .ok && audio.headers[.contentType] == "audio/mpeg")
                let coverURL = try #require(ready["cover_url"] as? String)
                let cover = try await client.json(.get, coverURL, token: ann)
                #expect(cover.status == .ok && Array(cover.raw.readableBytesView) == Self.jpeg)

                // Another account sees none of it; removing it takes its files.
                let bob = try await client.register("bob")
                #expect(try await client.json(.post, "/api/v1/dual/books/\(id)/resume", token: bob).status == .notFound)
                let folder = app.services.configuration.dataDirectory + "/dual/books/librivox-\(id)"
                #expect(FileManager.default.fileExists(atPath: folder + "/book.mp3"))
                #expect(!FileManager.default.fileExists(atPath: folder + "/section-0001.mp3"), "sections go once joined")
                #expect(try await client.json(.delete, "/api/v1/dual/books/\(id)", token: ann).status == .noContent)
                #expect(!FileManager.default.fileExists(atPath: folder))
                #expect(try await client.json(.post, "/api/v1/dual/librivox/books/999", token: ann).status == .notFound)
                #expect(try await client.json(.post, "/api/v1/dual/librivox/books/4x7", token: ann).status == .badRequest)
            }
        }
    }

    /// Sections and covers are addresses LibriVox's answer names, so they are fetched under
    /// the private-network rule of feeds, articles and radio: a catalogue (or anyone who can
    /// change its answer) naming an address inside the server's network gets nothing from it.
    @Test(arguments: TestBackend.available)
    func sectionsAndCoversOnAPrivateNetworkAreNotFetched(backend: TestBackend) async throws {
        let archive = Archive()
        let fake = Application(router: Self.fake(archive), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await fake.test(.live) { fakeClient in
            let port = try #require(fakeClient.port)
            // The catalogue is the operator's setting (here on loopback); the files it names
            // are not, and the server keeps its default: no private networks.
            try await TestApp.run(backend, configure: { $0.groups[DualPlayerSettings.self].libriVoxURL = URL(string: "http://127.0.0.1:\(port)/api/feed") }) {
                _, client in
                let ann = try await client.register("ann")
                let added = try await client.json(.post, "/api/v1/dual/librivox/books/47", token: ann)
                #expect(added.status == .accepted, "\(added.json)")
                let id = try #require(added.json["id"] as? String)
                let failed = try await Self.waitFor("failed", book: id, client: client, token: ann)
                let failure = (failed["download"] as? [String: Any])?["failure"] as? String ?? ""
                #expect(failure.contains("private or local network"), "\(failed)")
                #expect(archive.ranges.withLock { $0 }.isEmpty, "no section was asked of the private address")
                #expect(archive.covers.load(ordering: .relaxed) == 0, "nor the cover")
                #expect(failed["cover_url"] == nil || failed["cover_url"] is NSNull)
            }
        }
    }

    @Test func anUnreachableLibriVoxIsABadGateway() async throws {
        try await TestApp.run(.sqlite, configure: { $0.groups[DualPlayerSettings.self].libriVoxURL = URL(string: "http://127.0.0.1:1/api/feed") }) {
            _, client in
            let ann = try await client.register("ann")
            let search = try await client.json(.get, "/api/v1/dual/librivox/search?author=Shelley", token: ann)
            #expect(search.status == .badGateway && search.json["error"] as? String == "librivox_unavailable", "\(search.json)")
        }
    }
}
