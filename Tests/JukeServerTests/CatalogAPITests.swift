import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeTestSupport
import NIOCore
import Testing

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

@Suite(.timeLimit(.minutes(5))) struct CatalogAPITests {
    static let songs: [(title: String, artist: String, genre: String, year: Int)] = [
        ("Ode to Joy", "Ludwig van Beethoven", "Classical", 1824),
        ("Für Elise", "Ludwig van Beethoven", "Classical", 1810),
        ("Greensleeves", "Traditional", "Folk", 1580),
        ("The Entertainer", "Scott Joplin", "Ragtime", 1902),
    ]

    @Test(arguments: TestBackend.available)
    func browsesAndSearchesTheLibrary(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let token = try await client.register("admin")
            _ = try await app.addSongs(Self.songs)

            let tracks = try await client.json(.get, "/api/v1/catalog/tracks?limit=2&offset=1", token: token)
            #expect(tracks.status == .ok)
            #expect(tracks.json["total"] as? Int == 4)
            #expect((tracks.json["items"] as? [[String: Any]])?.count == 2)

            let search = try await client.json(.get, "/api/v1/catalog/search?q=beeth%20od", token: token)
            let hits = try #require(search.json["items"] as? [[String: Any]])
            #expect(hits.map { $0["title"] as? String } == ["Ode to Joy"])
            #expect(search.json["approximate"] as? Bool == false)
            let typo = try await client.json(.get, "/api/v1/catalog/search?q=beethovn%20od", token: token)
            #expect(typo.json["approximate"] as? Bool == true)
            #expect(typo.json["suggestion"] as? String == "beethoven od")
            #expect((typo.json["items"] as? [[String: Any]])?.first?["title"] as? String == "Ode to Joy")
            let track = hits[0]
            #expect(track["audio_url"] as? String == "/api/v1/catalog/tracks/\(track["id"] as? String ?? "")/audio")
            #expect(track["year"] as? Int == 1824)
            #expect(track["path"] == nil, "server paths are not part of the API")

            let albums = try await client.json(.get, "/api/v1/catalog/albums", token: token)
            #expect(albums.json["total"] as? Int == 3)
            let artists = try await client.json(.get, "/api/v1/catalog/artists", token: token)
            let beethoven = try #require((artists.json["items"] as? [[String: Any]])?.first { $0["name"] as? String == "Ludwig van Beethoven" })
            #expect(beethoven["track_count"] as? Int == 2)
            let byArtist = try await client.json(.get, "/api/v1/catalog/tracks?artist_id=\(beethoven["id"] as? String ?? "")", token: token)
            #expect(byArtist.json["total"] as? Int == 2)
            // Recently added: a sort the page asks for, in pages (one scan added these at one time).
            let newest = try await client.json(.get, "/api/v1/catalog/tracks?sort=newest&limit=3", token: token)
            #expect(newest.status == .ok && newest.json["total"] as? Int == 4 && (newest.json["items"] as? [[String: Any]])?.count == 3)
            #expect(try await client.json(.get, "/api/v1/catalog/tracks?sort=oldest", token: token).status == .badRequest)

            let genres = try await client.execute(uri: "/api/v1/catalog/genres", method: .get, headers: [.authorization: "Bearer \(token)"])
            let genreList = try JSONSerialization.jsonObject(with: Data(buffer: genres.body)) as? [[String: Any]]
            #expect(genreList?.map { $0["value"] as? String } == ["Classical", "Folk", "Ragtime"])
            let byYear = try await client.json(.get, "/api/v1/catalog/tracks?year=1902", token: token)
            #expect((byYear.json["items"] as? [[String: Any]])?.first?["title"] as? String == "The Entertainer")
        }
    }

    @Test(arguments: TestBackend.available)
    func validatesCatalogInput(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let token = try await client.register("admin")
            #expect(try await client.json(.get, "/api/v1/catalog/tracks").status == .unauthorized)
            #expect(try await client.json(.get, "/api/v1/catalog/tracks?limit=0", token: token).status == .badRequest)
            #expect(try await client.json(.get, "/api/v1/catalog/tracks?limit=501", token: token).status == .badRequest)
            #expect(try await client.json(.get, "/api/v1/catalog/tracks?offset=-1", token: token).status == .badRequest)
            #expect(try await client.json(.get, "/api/v1/catalog/tracks?limit=abc", token: token).status == .badRequest)
            #expect(try await client.json(.get, "/api/v1/catalog/tracks?artist_id=nope", token: token).json["field"] as? String == "artist_id")
            #expect(try await client.json(.get, "/api/v1/catalog/tracks/\(UUID())", token: token).status == .notFound)
            #expect(try await client.json(.get, "/api/v1/catalog/tracks/not-a-uuid", token: token).status == .badRequest)
            #expect(try await client.json(.get, "/api/v1/catalog/search", token: token).status == .badRequest)
            let long = String(repeating: "a", count: 201)
            #expect(try await client.json(.get, "/api/v1/catalog/search?q=\(long)", token: token).status == .badRequest)
            let missing = try await client.json(.get, "/api/v1/nothing-here", token: token)
            #expect(missing.status == .notFound)
            #expect(missing.json["error"] as? String == "not_found")
        }
    }

    @Test(arguments: TestBackend.available)
    func servesAudioWithRangesAndValidators(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let token = try await client.register("admin")
            _ = try await app.addSongs(Array(Self.songs.prefix(1)))
            let list = try await client.json(.get, "/api/v1/catalog/tracks", token: token)
            let id = try #require((list.json["items"] as? [[String: Any]])?.first?["id"] as? String)
            let auth: HTTPFields = [.authorization: "Bearer \(token)"]
            let uri = "/api/v1/catalog/tracks/\(id)/audio"

            let whole = try await client.execute(uri: uri, method: .get, headers: auth)
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentType] == "audio/wav")
            #expect(whole.headers[.acceptRanges] == "bytes")
            let size = whole.body.readableBytes
            #expect(whole.headers[.contentLength] == String(size))
            #expect(Array(whole.body.readableBytesView.prefix(4)) == Array("RIFF".utf8))
            let etag = try #require(whole.headers[.eTag])
            #expect(whole.headers[.lastModified] != nil)

            var rangeHeaders = auth
            rangeHeaders[.range] = "bytes=4-11"
            let part = try await client.execute(uri: uri, method: .get, headers: rangeHeaders)
            #expect(part.status == .partialContent)
            #expect(part.headers[.contentRange] == "bytes 4-11/\(size)")
            #expect(Array(part.body.readableBytesView) == Array(whole.body.readableBytesView.dropFirst(4).prefix(8)))

            rangeHeaders[.range] = "bytes=-10"
            let suffix = try await client.execute(uri: uri, method: .get, headers: rangeHeaders)
            #expect(suffix.headers[.contentRange] == "bytes \(size - 10)-\(size - 1)/\(size)")

            rangeHeaders[.range] = "bytes=\(size)-"
            let beyond = try await client.execute(uri: uri, method: .get, headers: rangeHeaders)
            #expect(beyond.status == .rangeNotSatisfiable)
            #expect(beyond.headers[.contentRange] == "bytes */\(size)")

            var conditional = auth
            conditional[.ifNoneMatch] = etag
            #expect(try await client.execute(uri: uri, method: .get, headers: conditional).status == .notModified)

            let art = try await client.execute(uri: "/api/v1/catalog/tracks/\(id)/artwork", method: .get, headers: auth)
            #expect(art.status == .ok)
            #expect(art.headers[.contentType] == "image/png")
            var artConditional = auth
            artConditional[.ifNoneMatch] = try #require(art.headers[.eTag])
            #expect(try await client.execute(uri: "/api/v1/catalog/tracks/\(id)/artwork", method: .get, headers: artConditional).status == .notModified)
            #expect(try await client.execute(uri: uri, method: .get).status == .unauthorized)
        }
    }

    @Test func parsesRangeHeaders() {
        #expect(ByteRange.parse(nil, fileSize: 100) == .whole)
        #expect(ByteRange.parse("bytes=0-9", fileSize: 100) == .partial(0...9))
        #expect(ByteRange.parse("bytes=90-", fileSize: 100) == .partial(90...99))
        #expect(ByteRange.parse("bytes=90-500", fileSize: 100) == .partial(90...99))
        #expect(ByteRange.parse("bytes=-5", fileSize: 100) == .partial(95...99))
        #expect(ByteRange.parse("bytes=100-", fileSize: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-0", fileSize: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=5-1", fileSize: 100) == .whole)
        #expect(ByteRange.parse("bytes=0-1,5-6", fileSize: 100) == .whole)
        #expect(ByteRange.parse("items=0-1", fileSize: 100) == .whole)
    }
}
