import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeCore
import JukePlatform
import JukeTestSupport
import NIOCore
import Testing

@testable import DualPlayerServer
@testable import JukeServer

/// Uploads to Dual Player's shelf and song list: a book's chapters held to its audio, the
/// same file uploaded again answered with what is already there, and an M4B as a song.
@Suite(.timeLimit(.minutes(5))) struct DualPlayerUploadTests {
    /// `seconds` of a tone with chapters every 30 s to 120 s, whatever the audio's length, in
    /// `path`'s container (ffmpeg writes M4B's chapter track and MP3's ID3 CHAP frames).
    static func bookWithLongChapters(_ path: String, seconds: Int) async throws -> [UInt8] {
        let metadata = path + ".txt"
        var text = ";FFMETADATA1\ntitle=Longer Than Its Audio\nartist=Juke Tests\n"
        for (index, title) in ["One", "Two", "Three", "Four"].enumerated() {
            text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(index * 30_000)\nEND=\((index + 1) * 30_000)\ntitle=\(title)\n"
        }
        try text.write(toFile: metadata, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: metadata) }
        let codec = path.hasSuffix(".mp3") ? "libmp3lame" : "aac"
        try await TranscodingTests.makeWithFFmpeg([
            "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-i", metadata,
            "-map", "0:a", "-map_metadata", "1", "-map_chapters", "1", "-c:a", codec, "-b:a", "32k", path,
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func upload(_ client: any TestClientProtocol, _ what: String, _ bytes: [UInt8], filename: String, token: String, share: Bool = false)
        async throws -> (status: HTTPResponse.Status, json: [String: Any])
    {
        let response = try await client.execute(
            uri: "/api/v1/dual/\(what)?filename=\(filename)&share=\(share)", method: .post,
            headers: [.authorization: "Bearer \(token)", .contentType: "application/octet-stream"], body: ByteBuffer(bytes: bytes))
        return (response.status, (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:])
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MediaFormatsTests/Fixtures/\(name)")
        return [UInt8](try Data(contentsOf: url))
    }

    /// A 40 s book whose file declares four 30 s chapters: the chapters that start after its
    /// audio are left out and the last ends with it, so the player never offers a chapter it
    /// cannot play (the M4B's movie lasts as long as its chapter track: 120 s).
    @Test(arguments: ["m4b", "mp3"])
    func aBooksChaptersEndWithItsAudio(ext: String) async throws {
        let bytes = try await Self.bookWithLongChapters(
            FileManager.default.temporaryDirectory.appendingPathComponent("juke-long-\(UUID().uuidString).\(ext)").path, seconds: 40)
        try await TestApp.run(.sqlite) { _, client in
            let ann = try await client.register("ann")
            let added = try await Self.upload(client, "books", bytes, filename: "long.\(ext)", token: ann)
            #expect(added.status == .created, "\(added.json)")
            let chapters = try #require(added.json["chapters"] as? [[String: Any]])
            #expect(chapters.compactMap { $0["title"] as? String } == ["One", "Two"], "\(chapters)")
            let duration = try #require(added.json["duration"] as? Double)
            #expect(abs(duration - 40) < 0.2, "the audio's length, not the chapters': \(duration)")
            #expect((chapters.last?["end"] as? Double).map { abs($0 - duration) < 0.001 } == true, "\(chapters)")
        }
    }

    /// The same bytes uploaded again are the book or song already there: 200 with it, nothing
    /// new kept, on the uploader's shelf; another account's upload of them is its own.
    @Test(arguments: TestBackend.available)
    func theSameFileTwiceIsWhatIsAlreadyThere(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let ann = try await client.register("ann")
            let bob = try await client.register("bob")
            let book = try Self.fixture("chapters/both.m4b")
            let first = try await Self.upload(client, "books", book, filename: "Small.m4b", token: ann)
            #expect(first.status == .created, "\(first.json)")
            let id = try #require(first.json["id"] as? String)
            for name in ["Small.m4b", "Another%20name.m4b"] {
                let again = try await Self.upload(client, "books", book, filename: name, token: ann)
                #expect(again.status == .ok && again.json["id"] as? String == id, "\(again.status) \(again.json)")
            }
            let shelf = try await client.json(.get, "/api/v1/dual/books", token: ann)
            #expect((shelf.json["items"] as? [[String: Any]])?.count == 1)
            let folder = app.services.configuration.dataDirectory + "/dual/books"
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).count == 1, "no second file is kept")
            let bobs = try await Self.upload(client, "books", book, filename: "Small.m4b", token: bob)
            #expect(bobs.status == .created && bobs.json["id"] as? String != id)

            let song = try Self.fixture("id3v24.mp3")
            let firstSong = try await Self.upload(client, "songs", song, filename: "song.mp3", token: ann)
            #expect(firstSong.status == .created)
            let songAgain = try await Self.upload(client, "songs", song, filename: "song%20copy.mp3", token: ann)
            #expect(songAgain.status == .ok && songAgain.json["id"] as? String == firstSong.json["id"] as? String, "\(songAgain.json)")
            #expect((try await client.json(.get, "/api/v1/dual/songs", token: ann).json["items"] as? [[String: Any]])?.count == 1)
        }
    }

    /// An audiobook file is a song too when it is uploaded as one.
    @Test func anM4BUploadsAsASong() async throws {
        try await TestApp.run(.sqlite) { _, client in
            let ann = try await client.register("ann")
            let added = try await Self.upload(client, "songs", try Self.fixture("chapters/both.m4b"), filename: "book.m4b", token: ann)
            #expect(added.status == .created && added.json["format"] as? String == "mp4", "\(added.json)")
        }
    }
}

/// An audiobook's own cover (an M4B's `covr` atom): read at upload, kept beside the book,
/// served at its cover address with the type its bytes say, and removed with the book.
@Suite(.timeLimit(.minutes(5))) struct DualPlayerBookCoverTests {
    /// A 3 s M4B with a 64x64 PNG attached as its cover (`covr`, as ffmpeg writes attached pictures).
    static func coveredBook() async throws -> (book: [UInt8], cover: [UInt8]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-cover-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await TranscodingTests.makeWithFFmpeg([
            "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=red:s=64x64:d=1", "-frames:v", "1", folder + "/cover.png",
        ])
        try await TranscodingTests.makeWithFFmpeg([
            "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-i", folder + "/cover.png",
            "-map", "0:a", "-map", "1:v", "-c:a", "aac", "-b:a", "32k", "-c:v", "png", "-disposition:v", "attached_pic",
            "-metadata", "album=A Covered Book", "-metadata", "artist=Juke Tests", "-f", "ipod", folder + "/book.m4b",
        ])
        return (
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/book.m4b"))),
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/cover.png")))
        )
    }

    @Test func anM4BsCoverIsKeptServedAndRemovedWithItsBook() async throws {
        let (book, cover) = try await Self.coveredBook()
        try await TestApp.run(.sqlite) { app, client in
            let ann = try await client.register("ann")
            let added = try await DualPlayerUploadTests.upload(client, "books", book, filename: "covered.m4b", token: ann)
            #expect(added.status == .created, "\(added.json)")
            let address = try #require(added.json["cover_url"] as? String, "the book has its cover: \(added.json)")
            let served = try await client.json(.get, address, token: ann)
            #expect(served.status == .ok && served.headers[.contentType] == "image/png", "\(served.status) \(served.headers)")
            #expect(Array(served.raw.readableBytesView) == cover, "the cover's own bytes")
            let shelf = try await client.json(.get, "/api/v1/dual/books", token: ann)
            #expect((shelf.json["items"] as? [[String: Any]])?.first?["cover_url"] as? String == address)
            // Another account does not see it.
            let bob = try await client.register("bob")
            #expect(try await client.json(.get, address, token: bob).status == .notFound)

            let id = try #require(added.json["id"] as? String)
            #expect(try await client.json(.delete, "/api/v1/dual/books/\(id)", token: ann).status == .noContent)
            let folder = app.services.configuration.dataDirectory + "/dual/books"
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty, "neither the book nor its cover stays")
        }
    }

    /// A book without a cover has none to show.
    @Test func aBookWithoutACoverHasNoCoverAddress() async throws {
        try await TestApp.run(.sqlite) { _, client in
            let ann = try await client.register("ann")
            let added = try await DualPlayerUploadTests.upload(
                client, "books", try DualPlayerUploadTests.fixture("chapters/both.m4b"), filename: "b.m4b", token: ann)
            #expect(added.status == .created && added.json["cover_url"] == nil, "\(added.json)")
        }
    }
}
