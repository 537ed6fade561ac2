import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JukeTestSupport
import NIOCore
import Synchronization
import Testing

@testable import DualPlayerServer
@testable import JukePlatform
@testable import JukeServer

/// Dual Player's radio over HTTP, against a local fake of Radio Browser's servers: search,
/// a listen that counts the click and sends the player to the stream, favourites per
/// account, and a directory that cannot be reached.
@Suite(.timeLimit(.minutes(5))) struct DualPlayerRadioTests {
    static let stationID = "96062a7b-0601-11e8-ae97-52543be04c81"

    final class Seen: Sendable {
        let clicks = Mutex<[String]>([])
        let agents = Mutex<[String]>([])
    }

    @Sendable static func json(_ object: Any) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func fake(_ seen: Seen) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/json/servers") { request, _ in json([["name": "\(request.head.authority ?? "127.0.0.1")/mirror"]]) }
        router.get("/mirror/json/stations/search") { request, _ -> Response in
            seen.agents.withLock { $0.append(request.headers[.userAgent] ?? "") }
            return json([
                [
                    "stationuuid": stationID, "name": "Jazz Test FM", "url": "http://stream.example.test/jazz.pls",
                    "url_resolved": "http://stream.example.test/jazz.mp3", "tags": "jazz,swing", "country": "France", "countrycode": "FR",
                    "language": "french", "codec": "MP3", "bitrate": 128, "hls": 0, "lastcheckok": 1, "votes": 10, "clickcount": 99,
                ]
            ])
        }
        router.get("/mirror/json/url/:id") { _, context -> Response in
            let id = context.parameters.get("id") ?? ""
            seen.clicks.withLock { $0.append(id) }
            return json(["ok": true, "message": "retrieved station url", "stationuuid": id, "url": "http://stream.example.test/jazz.mp3"])
        }
        return router
    }

    static func withFake(_ body: @escaping @Sendable (URL, Seen) async throws -> Void) async throws {
        let seen = Seen()
        let app = Application(router: fake(seen), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)/json/servers")), seen)
        }
    }

    @Test(arguments: TestBackend.available)
    func searchListenAndFavourites(backend: TestBackend) async throws {
        try await Self.withFake { discovery, seen in
            try await TestApp.run(backend, configure: { $0.radioBrowserDiscovery = discovery }) { _, client in
                let ann = try await client.register("ann")
                let bob = try await client.register("bob")
                let found = try await client.json(.get, "/api/v1/dual/radio/search?tag=jazz&country=FR", token: ann)
                #expect(found.status == .ok, "\(found.json)")
                let station = try #require((found.json["items"] as? [[String: Any]])?.first)
                #expect(station["name"] as? String == "Jazz Test FM" && station["stream_url"] as? String == "http://stream.example.test/jazz.mp3")
                #expect(station["tags"] as? [String] == ["jazz", "swing"] && station["bitrate"] as? Int == 128)
                #expect(seen.agents.withLock { $0.first?.hasPrefix("Juke/") } == true)
                #expect(try await client.json(.get, "/api/v1/dual/radio/search", token: ann).status == .ok, "no filter: the most listened stations")

                // Listening counts the click and sends the player to the stream.
                let listen = try await client.json(.get, "/api/v1/dual/radio/stations/\(Self.stationID)/listen", token: ann)
                #expect(listen.status == .found && listen.headers[.location] == "http://stream.example.test/jazz.mp3")
                #expect(seen.clicks.withLock { $0 } == [Self.stationID])
                #expect(try await client.json(.get, "/api/v1/dual/radio/stations/not..an..id/listen", token: ann).status == .badRequest)
                #expect(try await client.json(.get, "/api/v1/dual/radio/stations/\(Self.stationID)/listen").status == .unauthorized)

                // Favourites are each account's own.
                let body = String(decoding: try JSONSerialization.data(withJSONObject: station, options: [.withoutEscapingSlashes]), as: UTF8.self)
                #expect(try await client.json(.put, "/api/v1/dual/radio/favorites/\(Self.stationID)", token: ann, body: body).status == .ok)
                let favorites = try await client.json(.get, "/api/v1/dual/radio/favorites", token: ann)
                #expect((favorites.json["items"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Jazz Test FM"])
                #expect((try await client.json(.get, "/api/v1/dual/radio/favorites", token: bob).json["items"] as? [[String: Any]])?.isEmpty == true)
                #expect(try await client.json(.put, "/api/v1/dual/radio/favorites/not-a-uuid", token: ann, body: body).status == .badRequest)
                #expect(try await client.json(.delete, "/api/v1/dual/radio/favorites/%C3%97", token: ann).status == .badRequest)
                // Fullwidth digits count as hexadecimal to Swift, not to a UUID.
                #expect(try await client.json(.delete, "/api/v1/dual/radio/favorites/%EF%BC%91", token: ann).status == .badRequest)
                let script = body.replacingOccurrences(of: "http://stream.example.test/jazz.mp3", with: "javascript:alert(1)")
                #expect(try await client.json(.put, "/api/v1/dual/radio/favorites/\(Self.stationID)", token: ann, body: script).status == .badRequest)
                #expect(try await client.json(.delete, "/api/v1/dual/radio/favorites/\(Self.stationID)", token: ann).status == .noContent)
                #expect((try await client.json(.get, "/api/v1/dual/radio/favorites", token: ann).json["items"] as? [[String: Any]])?.isEmpty == true)

                // A station is a player item like any other: its address is Juke's listen path.
                let state =
                    #"{"item":{"kind":"station","id":"\#(Self.stationID)","title":"Jazz Test FM","audio_url":"/api/v1/dual/radio/stations/\#(Self.stationID)/listen"},"position":0,"playing":true,"updated_at":5}"#
                #expect(try await client.json(.put, "/api/v1/dual/players/music", token: ann, body: state).status == .ok)
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func anUnreachableDirectoryIsABadGatewayThatSaysWhy(backend: TestBackend) async throws {
        let nowhere = try #require(URL(string: "http://127.0.0.1:1/json/servers"))
        try await TestApp.run(backend, configure: { $0.radioBrowserDiscovery = nowhere }) { _, client in
            let ann = try await client.register("ann")
            let search = try await client.json(.get, "/api/v1/dual/radio/search?name=jazz", token: ann)
            #expect(search.status == .badGateway && search.json["error"] as? String == "radio_unavailable")
            #expect((search.json["message"] as? String)?.contains("127.0.0.1:1") == true, "the message says which list could not be read")
            #expect(try await client.json(.get, "/api/v1/dual/radio/stations/\(Self.stationID)/listen", token: ann).status == .badGateway)
        }
    }
}
