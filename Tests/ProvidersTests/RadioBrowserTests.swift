import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import Testing

@testable import Providers

/// Radio Browser against a local fake of its mirrors: discovery lists a dead server, one
/// that answers an HTML error page, one that answers 503 and a good one; the client must
/// skip to the good one, send its User-Agent, and count clicks.
@Suite(.timeLimit(.minutes(5))) struct RadioBrowserTests {
    final class Log: Sendable {
        let discoveries = Atomic<Int>(0)
        let userAgents = Mutex<[String]>([])
        let queries = Mutex<[String]>([])
    }

    static var stations: [[String: Any]] {
        [
            [
                "stationuuid": "96062a7b-0601-11e8-ae97-52543be04c81", "name": "Jazz Radio Blues", "url": "http://example.test/blues.pls",
                "url_resolved": "http://stream.example.test/blues.mp3", "homepage": "https://jazz.example.test/",
                "favicon": "https://jazz.example.test/icon.png",
                "tags": "jazz,blues, soul ", "country": "France", "countrycode": "FR", "language": "french,english", "codec": "MP3", "bitrate": 128,
                "hls": 0, "lastcheckok": 1, "votes": "321", "clickcount": 1200,
            ],
            [
                "stationuuid": "a1", "name": "HLS Test", "url": "https://hls.example.test/live.m3u8", "url_resolved": "", "hls": "1", "lastcheckok": 1,
                "bitrate": "64",
            ],
            ["stationuuid": "a2", "name": "Not a stream", "url": "javascript:alert(1)"],
            ["name": "No id", "url": "http://x.example.test/"],
        ]
    }

    static func fake(_ log: Log) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/json/servers") { request, _ -> Response in
            log.discoveries.add(1, ordering: .relaxed)
            let host = request.head.authority ?? "127.0.0.1"
            if request.uri.queryParameters.get("broken") != nil {
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<html>down</html>")))
            }
            return CatalogTests.json(
                200, [["name": "127.0.0.1:1", "ip": "127.0.0.1"], ["name": "\(host)/html"], ["name": "\(host)/unavailable"], ["name": "\(host)/good"]])
        }
        router.get("/html/json/stations/search") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "text/html"
            return Response(
                status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "\n  <!DOCTYPE html><html><body>502 Bad Gateway</body></html>")))
        }
        router.get("/unavailable/json/stations/search") { _, _ in CatalogTests.json(503, ["error": "maintenance"]) }
        router.get("/good/json/stations/search") { request, _ -> Response in
            log.userAgents.withLock { $0.append(request.headers[.userAgent] ?? "") }
            log.queries.withLock { $0.append(request.uri.query ?? "") }
            return CatalogTests.json(200, stations)
        }
        router.get("/good/json/url/:id") { _, context -> Response in
            CatalogTests.json(
                200,
                [
                    "ok": true, "message": "retrieved station url", "stationuuid": context.parameters.get("id") ?? "",
                    "url": "http://stream.example.test/blues.mp3",
                ])
        }
        return router
    }

    static func withFake(_ body: @escaping @Sendable (URL, Log) async throws -> Void) async throws {
        let log = Log()
        try await CatalogTests.serve(fake(log)) { base in
            let port = try #require(base.port)
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)/json/servers")), log)
        }
    }

    @Test func searchSkipsDeadHTMLAndFailingServersAndReadsStations() async throws {
        try await Self.withFake { discovery, log in
            let radio = RadioBrowser(http: .tests, discoveryURL: discovery, fallbackServers: [], scheme: "http", timeout: 3)
            let stations = try await radio.search(RadioQuery(name: "jazz", tag: "blues", country: "fr", language: "French", limit: 20))
            #expect(stations.map(\.name) == ["Jazz Radio Blues", "HLS Test"], "rows without an id or an http(s) stream are dropped")
            let blues = try #require(stations.first)
            #expect(blues.streamURL == "http://stream.example.test/blues.mp3", "the resolved URL, not the playlist")
            #expect(blues.tags == ["jazz", "blues", "soul"] && blues.languages == ["french", "english"])
            #expect(blues.votes == 321 && blues.bitrate == 128 && blues.countryCode == "FR" && blues.lastCheckOK && !blues.isHLS)
            #expect(stations[1].isHLS && stations[1].streamURL == "https://hls.example.test/live.m3u8" && stations[1].bitrate == 64)
            let agent = try #require(log.userAgents.withLock { $0.first })
            #expect(agent.hasPrefix("Juke/") && agent.contains("("), "a descriptive User-Agent: \(agent)")
            let query = try #require(log.queries.withLock { $0.first })
            for part in ["name=jazz", "tag=blues", "countrycode=FR", "language=french", "hidebroken=true", "order=clickcount", "limit=20"] {
                #expect(query.contains(part), "\(part) in \(query)")
            }
        }
    }

    @Test func whenEveryServerFailsEachReasonIsKept() async throws {
        try await Self.withFake { discovery, _ in
            let port = try #require(discovery.port)
            let radio = RadioBrowser(
                http: .tests, discoveryURL: nil, fallbackServers: ["127.0.0.1:1", "127.0.0.1:\(port)/html", "127.0.0.1:\(port)/unavailable"], scheme: "http",
                timeout: 3)
            do {
                _ = try await radio.search(RadioQuery(name: "x"))
                Issue.record("no server had an answer")
            } catch {
                guard let failure = error as? RadioBrowserError, case .allServersFailed(let reasons) = failure else { throw error }
                #expect(reasons.count == 3)
                #expect(reasons[1].contains("HTML") && reasons[2].contains("503"))
            }
        }
    }

    @Test func aDiscoveryAnsweringHTMLFallsBackToTheSeedsOrder() async throws {
        try await Self.withFake { discovery, log in
            let port = try #require(discovery.port)
            var broken = try #require(URLComponents(url: discovery, resolvingAgainstBaseURL: false))
            broken.queryItems = [URLQueryItem(name: "broken", value: "1")]
            let radio = RadioBrowser(
                http: .tests, discoveryURL: broken.url, fallbackServers: ["127.0.0.1:\(port)/html", "127.0.0.1:\(port)/good"], scheme: "http", timeout: 3)
            #expect(await radio.servers() == ["127.0.0.1:\(port)/html", "127.0.0.1:\(port)/good"])
            let found = try await radio.search(RadioQuery(tag: "jazz"))
            #expect(found.count == 2)
            #expect(log.discoveries.load(ordering: .relaxed) >= 2, "an HTML discovery answer is not cached")
        }
    }

    @Test func aDiscoveredListIsReusedAndPutBeforeTheFallbacks() async throws {
        try await Self.withFake { discovery, log in
            let radio = RadioBrowser(
                http: .tests, discoveryURL: discovery, fallbackServers: ["de1.api.radio-browser.info", "127.0.0.1:1"], scheme: "http", timeout: 3)
            let servers = await radio.servers()
            #expect(servers.first == "127.0.0.1:1" && servers.last == "de1.api.radio-browser.info" && servers.count == 5)
            _ = try await radio.search(RadioQuery(name: "a"))
            _ = try await radio.search(RadioQuery(name: "b"))
            #expect(log.discoveries.load(ordering: .relaxed) == 1)
        }
    }

    @Test func aClickIsCountedAndReturnsTheStream() async throws {
        try await Self.withFake { discovery, _ in
            let radio = RadioBrowser(http: .tests, discoveryURL: discovery, fallbackServers: [], scheme: "http", timeout: 3)
            let stream = try await radio.countClick(stationID: "96062a7b-0601-11e8-ae97-52543be04c81")
            #expect(stream == "http://stream.example.test/blues.mp3")
            await #expect(throws: RadioBrowserError.invalid("not a station id")) { try await radio.countClick(stationID: "../../etc") }
        }
    }

    @Test func htmlIsRecognisedByItsFirstByte() {
        #expect(RadioBrowser.looksLikeHTML(Data("  \n<!DOCTYPE html>".utf8)))
        #expect(RadioBrowser.looksLikeHTML(Data([0xEF, 0xBB, 0xBF] + Array("<html>".utf8))))
        #expect(!RadioBrowser.looksLikeHTML(Data("[{\"name\": \"<b>\"}]".utf8)))
        #expect(!RadioBrowser.looksLikeHTML(Data()))
    }
}
