import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JukeTestSupport
import NIOCore
import Providers
import Synchronization
import Testing

@testable import DualPlayerServer
@testable import JukePlatform
@testable import JukeServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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

    static func fake(_ seen: Seen, stream: String) -> Router<BasicRequestContext> {
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
            return json(["ok": true, "message": "retrieved station url", "stationuuid": id, "url": stream])
        }
        return router
    }

    static func withFake(stream: String = "http://stream.example.test/jazz.mp3", _ body: @escaping @Sendable (URL, Seen) async throws -> Void)
        async throws
    {
        let seen = Seen()
        let app = Application(router: fake(seen, stream: stream), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)/json/servers")), seen)
        }
    }

    @Test(arguments: TestBackend.available)
    func searchListenAndFavourites(backend: TestBackend) async throws {
        try await Self.withFake { discovery, seen in
            try await TestApp.run(backend, configure: { $0.groups[DualPlayerSettings.self].radioBrowserDiscovery = discovery }) { _, client in
                let ann = try await client.register("ann")
                let bob = try await client.register("bob")
                let found = try await client.json(.get, "/api/v1/dual/radio/search?tag=jazz&country=FR", token: ann)
                #expect(found.status == .ok, "\(found.json)")
                let station = try #require((found.json["items"] as? [[String: Any]])?.first)
                #expect(station["name"] as? String == "Jazz Test FM" && station["stream_url"] as? String == "http://stream.example.test/jazz.mp3")
                #expect(station["tags"] as? [String] == ["jazz", "swing"] && station["bitrate"] as? Int == 128)
                #expect(seen.agents.withLock { $0.first?.hasPrefix("Juke/") } == true)
                #expect(try await client.json(.get, "/api/v1/dual/radio/search", token: ann).status == .ok, "no filter: the most listened stations")

                // Listening counts the click; a stream the relay cannot reach says why.
                let listen = try await client.json(.get, "/api/v1/dual/radio/stations/\(Self.stationID)/listen", token: ann)
                #expect(listen.status == .badGateway && listen.json["error"] as? String == "radio_stream_unavailable", "\(listen.json)")
                #expect(seen.clicks.withLock { $0 } == [Self.stationID])
                #expect(try await client.json(.get, "/api/v1/dual/radio/stations/not..an..id/listen", token: ann).status == .badRequest)
                #expect(try await client.json(.get, "/api/v1/dual/radio/stations/\(Self.stationID)/listen").status == .unauthorized)

                // Favourites are each account's own.
                let body = String(decoding: try JSONSerialization.data(withJSONObject: station, options: [.withoutEscapingSlashes]), as: UTF8.self)
                #expect(try await client.json(.put, "/api/v1/dual/radio/favorites/\(Self.stationID)", token: ann, body: body).status == .ok)
                // An address whose host starts with a combining mark (which joins "://" as one
                // Character) is still an http address.
                var odd = station
                odd["stream_url"] = "http://\u{1F3FB}radio.example/stream"
                let oddBody = String(decoding: try JSONSerialization.data(withJSONObject: odd, options: [.withoutEscapingSlashes]), as: UTF8.self)
                #expect(try await client.json(.put, "/api/v1/dual/radio/favorites/\(Self.stationID)", token: ann, body: oddBody).status == .ok)
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
                // A user before the host is refused too (WebAddress): on a page it leads elsewhere.
                let withUser = body.replacingOccurrences(of: "http://stream.example.test/jazz.mp3", with: "http://user:pw@stream.example.test/jazz.mp3")
                #expect(try await client.json(.put, "/api/v1/dual/radio/favorites/\(Self.stationID)", token: ann, body: withUser).status == .badRequest)
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
        try await TestApp.run(backend, configure: { $0.groups[DualPlayerSettings.self].radioBrowserDiscovery = nowhere }) { _, client in
            let ann = try await client.register("ann")
            let search = try await client.json(.get, "/api/v1/dual/radio/search?name=jazz", token: ann)
            #expect(search.status == .badGateway && search.json["error"] as? String == "radio_unavailable")
            // In plain words for the person searching (which servers failed, and how, is in the log).
            let message = try #require(search.json["message"] as? String)
            #expect(message.contains("cannot be reached") && message.contains("try again"), "\(message)")
            #expect(!["127.0.0.1", "HTTP", "mirror", ";", "json"].contains { message.contains($0) }, "\(message)")
            #expect(try await client.json(.get, "/api/v1/dual/radio/stations/\(Self.stationID)/listen", token: ann).status == .badGateway)
        }
    }

    /// Reads a relayed listen as a player does: the head, then audio until `bytes` have come.
    static func listen(port: Int, token: String, bytes: Int) async throws -> (status: Int, type: String?, audio: [UInt8]) {
        var request = OutboundRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/api/v1/dual/radio/stations/\(stationID)/listen")))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        var status = 0
        var type: String?
        var audio: [UInt8] = []
        for try await part in HTTPClient.tests.stream(request, idleTimeout: 60) {
            switch part {
            case .head(let code, let headers):
                status = code
                type = headers["content-type"]
                if code != 200 { return (status, type, audio) }
            case .bytes(let data):
                audio += data
                if audio.count >= bytes { return (status, type, audio) }
            }
        }
        return (status, type, audio)
    }

    @Test(arguments: TestBackend.available)
    func aStationPlaysThroughTheRelayWithItsTitle(backend: TestBackend) async throws {
        var options = FakeStation.Options()
        options.bytesPerSecond = 32_000
        options.titleEvery = 2
        let station = try await FakeStation.start(options)
        defer { Task { await station.stop() } }
        try await Self.withFake(stream: station.url("/icy.mp3").absoluteString) { discovery, seen in
            try await TestApp.run(
                backend, mode: .live,
                configure: {
                    $0.groups[DualPlayerSettings.self].radioBrowserDiscovery = discovery; $0.groups[DualPlayerSettings.self].radioAllowPrivateStreams = true
                }
            ) { _, client in
                let ann = try await client.register("ann")
                let port = try #require(client.port)
                async let first = Self.listen(port: port, token: ann, bytes: 8000)
                async let second = Self.listen(port: port, token: ann, bytes: 8000)
                let (a, b) = try await (first, second)
                for heard in [a, b] {
                    #expect(heard.status == 200 && heard.type == "audio/mpeg")
                    // The station's audio and nothing else: the ICY blocks were taken out.
                    let offset = try #require(FakeStation.mpegBytes(417 * 2, from: 0).firstRange(of: heard.audio.prefix(417)))
                    #expect(heard.audio == FakeStation.mpegBytes(heard.audio.count, from: offset.lowerBound))
                }
                #expect(station.requests.withLock { $0.count } == 1, "two listeners, one connection to the station")
                #expect(seen.clicks.withLock { $0.count } == 2, "each listen is counted")
                let now = try await client.json(.get, "/api/v1/dual/radio/stations/\(Self.stationID)/now-playing", token: ann)
                #expect(now.status == .ok && now.json["relayed"] as? Bool == true && now.json["format"] as? String == "mpeg")
                #expect((now.json["title"] as? String)?.hasPrefix("Artist ") == true, "\(now.json)")
                // Nobody listens: the relay lets the station go after its grace period.
                let other = try await client.json(.get, "/api/v1/dual/radio/stations/11111111-2222-3333-4444-555555555555/now-playing", token: ann)
                #expect(other.json["relayed"] as? Bool == false && (other.json["title"] == nil || other.json["title"] is NSNull))
            }
        }
    }

    @Test(arguments: [
        ("/page.html", 502, "radio_not_audio", "does not send audio"), ("/gone", 502, "radio_stream_unavailable", "not broadcasting"),
    ])
    func whatTheRelayRefuses(path: String, status: Int, code: String, says: String) async throws {
        let station = try await FakeStation.start()
        defer { Task { await station.stop() } }
        try await Self.withFake(stream: station.url(path).absoluteString) { discovery, _ in
            try await TestApp.run(
                .sqlite, mode: .live,
                configure: {
                    $0.groups[DualPlayerSettings.self].radioBrowserDiscovery = discovery; $0.groups[DualPlayerSettings.self].radioAllowPrivateStreams = true
                }
            ) { _, client in
                let ann = try await client.register("ann")
                let listen = try await client.json(.get, "/api/v1/dual/radio/stations/\(Self.stationID)/listen", token: ann)
                #expect(listen.status.code == status && listen.json["error"] as? String == code, "\(listen.json)")
                // Said as a listener reads it: what happened, not the station's HTTP answer.
                let message = try #require(listen.json["message"] as? String)
                #expect(message.contains(says) && !message.contains("HTTP") && !message.contains("text/html"), "\(message)")
            }
        }
    }

    @Test func aStationInsideThePrivateNetworkIsRefusedByDefault() async throws {
        let station = try await FakeStation.start()
        defer { Task { await station.stop() } }
        try await Self.withFake(stream: station.url("/live.mp3").absoluteString) { discovery, _ in
            try await TestApp.run(.sqlite, configure: { $0.groups[DualPlayerSettings.self].radioBrowserDiscovery = discovery }) { _, client in
                let ann = try await client.register("ann")
                let listen = try await client.json(.get, "/api/v1/dual/radio/stations/\(Self.stationID)/listen", token: ann)
                #expect(listen.status == .forbidden && listen.json["error"] as? String == "radio_private_network", "\(listen.json)")
                #expect(station.requests.withLock { $0.isEmpty }, "Juke never connected")
            }
        }
        // An HLS station: its playlists and segments come through the relay, on Juke's origin.
        try await Self.withFake(stream: station.url("/hls.m3u8").absoluteString) { discovery, _ in
            try await TestApp.run(
                .sqlite,
                configure: {
                    $0.groups[DualPlayerSettings.self].radioBrowserDiscovery = discovery; $0.groups[DualPlayerSettings.self].radioAllowPrivateStreams = true
                }
            ) { _, client in
                let ann = try await client.register("ann")
                let listen = try await client.json(.get, "/api/v1/dual/radio/stations/\(Self.stationID)/listen", token: ann)
                let master = try #require(listen.headers[.location])
                #expect(listen.status == .found && master.hasPrefix("/api/v1/dual/radio/stations/\(Self.stationID)/hls?u="), "\(master)")
                let variants = try await client.json(.get, master, token: ann)
                #expect(variants.status == .ok && variants.headers[.contentType] == "application/vnd.apple.mpegurl")
                let variantLine = try #require(String(buffer: variants.raw).split(separator: "\n").first { $0.hasPrefix("/api/") })
                let media = String(buffer: try await client.json(.get, String(variantLine), token: ann).raw)
                let lines = media.split(separator: "\n").map(String.init)
                #expect(lines.contains { $0.hasPrefix("#EXT-X-KEY:METHOD=AES-128,URI=\"/api/v1/dual/radio/stations/") }, "\(media)")
                let segments = lines.filter { $0.hasPrefix("/api/") }
                #expect(segments.count == 2 && !media.contains("seg1.aac\n"), "every address is the relay's: \(media)")
                let segment = try await client.json(.get, segments[1], token: ann)
                #expect(segment.status == .ok && segment.headers[.contentType] == "audio/aac" && segment.raw.readableBytes == 16)
                // Only the station's own hosts: the relay is no open proxy.
                let elsewhere = "/api/v1/dual/radio/stations/\(Self.stationID)/hls?u=http%3A%2F%2F169.254.169.254%2Flatest"
                #expect(try await client.json(.get, elsewhere, token: ann).status == .notFound)
                let otherStation = segments[1].replacingOccurrences(of: Self.stationID, with: "11111111-2222-3333-4444-555555555555")
                #expect(try await client.json(.get, otherStation, token: ann).status == .notFound)
                #expect(try await client.json(.get, segments[1]).status == .unauthorized)
            }
        }
    }

    /// A listener that stops reading is dropped at its backlog; the other hears every byte.
    /// (The reader is dropped only if it falls a whole backlog behind: 2 s of this station.)
    @Test func aStalledListenerNeverSlowsTheOthers() async throws {
        var options = FakeStation.Options()
        options.bytesPerSecond = 128_000
        options.writesPerSecond = 16
        let station = try await FakeStation.start(options)
        defer { Task { await station.stop() } }
        let relays = RadioRelays(
            connector: StreamConnector(allowPrivateNetworks: true), limits: .init(backlogBytes: 256 * 1024, burstBytes: 8 * 1024, maximumListeners: 10),
            idleGrace: .milliseconds(100), logger: TestDatabase.logger)
        let closed = Atomic<Int>(0)
        let (_, reader, relay) = try await relays.listen(station: "s", url: station.url("/live.mp3"), closeConnection: {})
        let (_, stalled, _) = try await relays.listen(station: "s", url: station.url("/live.mp3"), closeConnection: { closed.add(1, ordering: .relaxed) })
        var heard: [UInt8] = []
        // Read until the stalled listener is dropped, and a little past it.
        while heard.count < 300_000 || closed.load(ordering: .relaxed) == 0, heard.count < 2_000_000, let chunks = await reader.next() {
            for chunk in chunks { heard.append(contentsOf: chunk.readableBytesView) }
            relay.wrote(reader.id, size: chunks.reduce(0) { $0 + $1.readableBytes })
        }
        #expect(closed.load(ordering: .relaxed) == 1, "the stalled listener was dropped and its connection closed")
        let dropped = await stalled.next()
        #expect(dropped == nil)
        let start = try #require(FakeStation.mpegBytes(417 * 2, from: 0).firstRange(of: heard.prefix(417)))
        #expect(heard.count >= 300_000 && heard == FakeStation.mpegBytes(heard.count, from: start.lowerBound), "every byte, in order")
        relay.leave(reader.id)
    }

    /// At shutdown (`RadioRelayService`) the station's connection is closed and waited for,
    /// rather than left to its idle check: the listeners' streams end with it.
    @Test func shutdownClosesTheStationAndEndsItsListeners() async throws {
        let station = try await FakeStation.start(FakeStation.Options())
        defer { Task { await station.stop() } }
        let relays = RadioRelays(connector: StreamConnector(allowPrivateNetworks: true), idleGrace: .seconds(3600), logger: TestDatabase.logger)
        let (_, listener, _) = try await relays.listen(station: "s", url: station.url("/live.mp3"), closeConnection: {})
        #expect(relays.nowPlaying(station: "s") != nil)
        await relays.shutdown()
        while await listener.next() != nil {}
        #expect(relays.nowPlaying(station: "s") == nil, "the relay is let go once its station has closed")
    }
}
