@preconcurrency import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import Providers

/// Apple Music and iTunes Search against local fakes that speak their documented JSON, with
/// Apple Music's developer token checked the way Apple checks it (ES256 over header.payload
/// with the key's public half, kid and iss).
@Suite(.timeLimit(.minutes(5))) struct CatalogTests {
    static func serve(_ router: Router<BasicRequestContext>, _ body: @escaping @Sendable (URL) async throws -> Void) async throws {
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)/v1")))
        }
    }

    static func json(_ status: Int, _ object: Any, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func base64URLDecode(_ text: Substring) -> Data? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s)
    }

    static func appleFake(publicKey: P256.Signing.PublicKey) -> Router<BasicRequestContext> {
        let router = Router()
        let keyBytes = publicKey.rawRepresentation
        router.get("/v1/catalog/:storefront/search") { request, context -> Response in
            let auth = request.headers[.authorization] ?? ""
            let parts = auth.dropFirst("Bearer ".count).split(separator: ".")
            guard parts.count == 3, let header = base64URLDecode(parts[0]), let payload = base64URLDecode(parts[1]),
                let signature = base64URLDecode(parts[2]), let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
                let key = try? P256.Signing.PublicKey(rawRepresentation: keyBytes), key.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8)),
                let h = (try? JSONSerialization.jsonObject(with: header)) as? [String: Any], h["alg"] as? String == "ES256",
                h["kid"] as? String == "ABC123DEFG",
                let p = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any], p["iss"] as? String == "TEAM123456", p["exp"] is Int
            else {
                return json(401, ["errors": [["id": "1", "title": "Unauthorized", "detail": "Invalid authentication", "status": "401", "code": "40100"]]])
            }
            let term = request.uri.queryParameters.get("term") ?? ""
            if term == "slow down" { return json(429, ["errors": [["title": "Too Many Requests", "status": "429"]]], headers: [.retryAfter: "7"]) }
            if term == "nothing" { return json(200, ["results": [:], "meta": ["results": ["order": [], "rawOrder": []]]]) }
            #expect(context.parameters.get("storefront") == "gb" && request.uri.queryParameters.get("types") == "songs")
            let song: [String: Any] = [
                "id": "1440833098", "type": "songs", "href": "/v1/catalog/gb/songs/1440833098",
                "attributes": [
                    "name": "The Entertainer", "artistName": "Scott Joplin", "albumName": "Ragtime Classics", "durationInMillis": 212_000,
                    "isrc": "USRC17607839", "releaseDate": "1902-01-01", "genreNames": ["Ragtime", "Music"],
                    "artwork": ["url": "https://is1.example/{w}x{h}bb.jpg", "width": 3000, "height": 3000],
                    "url": "https://music.apple.com/gb/album/x?i=1440833098",
                ],
            ]
            return json(
                200, ["results": ["songs": ["href": "/v1/catalog/gb/search?term=x&types=songs", "next": "/v1/catalog/gb/search?offset=1", "data": [song]]]])
        }
        return router
    }

    @Test func appleMusicSearchSendsAValidDeveloperTokenAndReadsSongs() async throws {
        let key = P256.Signing.PrivateKey()
        let token = try AppleMusicToken(pem: key.pemRepresentation, keyID: "ABC123DEFG", teamID: "TEAM123456")
        try await Self.serve(Self.appleFake(publicKey: key.publicKey)) { url in
            let apple = AppleMusic(http: .tests, baseURL: url, token: token, storefront: "GB")
            let page = try await apple.search("the entertainer", limit: 10, offset: 0)
            #expect(page.hasMore)
            let song = try #require(page.songs.first)
            #expect(song.title == "The Entertainer" && song.artist == "Scott Joplin" && song.isrc == "USRC17607839")
            #expect(song.duration == 212 && song.year == 1902 && song.genre == "Ragtime" && song.artworkURL == "https://is1.example/300x300bb.jpg")
            let nothing = try await apple.search("nothing", limit: 10, offset: 0)
            #expect(nothing == CatalogPage(songs: [], hasMore: false))
            await #expect(throws: CatalogError.rateLimited(retryAfter: 7)) { try await apple.search("slow down", limit: 5, offset: 0) }
            // Another key's token is refused, with Apple's message.
            let stranger = try AppleMusicToken(pem: P256.Signing.PrivateKey().pemRepresentation, keyID: "ABC123DEFG", teamID: "TEAM123456")
            await #expect(throws: CatalogError.unauthorized("Unauthorized: Invalid authentication")) {
                try await AppleMusic(http: .tests, baseURL: url, token: stranger).search("x", limit: 5, offset: 0)
            }
        }
    }

    @Test func aBadKeyFileOrIDIsRefusedUpFront() {
        #expect(throws: CatalogError.invalidKey("the .p8 file is not a P-256 private key")) {
            try AppleMusicToken(pem: "-----BEGIN PRIVATE KEY-----\nnonsense\n-----END PRIVATE KEY-----", keyID: "ABC123DEFG", teamID: "TEAM123456")
        }
        #expect(throws: CatalogError.invalidKey("the key ID is 10 letters and digits")) {
            try AppleMusicToken(pem: P256.Signing.PrivateKey().pemRepresentation, keyID: "short", teamID: "TEAM123456")
        }
    }

    @Test func aTokenIsReusedUntilItsLastDay() throws {
        let token = try AppleMusicToken(pem: P256.Signing.PrivateKey().pemRepresentation, keyID: "ABC123DEFG", teamID: "TEAM123456", lifetime: 10 * 86_400)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try token.jwt(at: t0)
        #expect(try token.jwt(at: t0 + 8 * 86_400) == first)
        #expect(try token.jwt(at: t0 + 9.5 * 86_400) != first)
    }

    @Test func iTunesSearchReadsSongsAndRateLimits() async throws {
        let router = Router()
        router.get("/v1/search") { request, _ -> Response in
            let q = request.uri.queryParameters
            if q.get("term") == "busy" { return Self.json(403, ["errorMessage": "Too many requests"]) }
            #expect(q.get("media") == "music" && q.get("entity") == "song" && q.get("limit") == "2")
            return Self.json(
                200,
                [
                    "resultCount": 2,
                    "results": [
                        [
                            "wrapperType": "track", "kind": "song", "trackId": 1_440_833_098, "artistName": "Scott Joplin", "trackName": "Maple Leaf Rag",
                            "collectionName": "Ragtime", "trackTimeMillis": 183_000, "releaseDate": "1899-01-01T08:00:00Z", "primaryGenreName": "Jazz",
                            "artworkUrl100": "https://is1.example/100x100bb.jpg",
                        ],
                        ["wrapperType": "collection", "collectionName": "Not a song"],
                    ],
                ])
        }
        try await Self.serve(router) { url in
            let itunes = ITunesSearch(http: .tests, baseURL: url)
            let page = try await itunes.search("maple leaf", limit: 2, offset: 0)
            #expect(page.songs.count == 1 && page.songs[0].duration == 183 && page.songs[0].year == 1899 && page.songs[0].id == "1440833098")
            await #expect(throws: CatalogError.rateLimited(retryAfter: nil)) { try await itunes.search("busy", limit: 2, offset: 0) }
        }
    }

    /// Podcasts from the same API (`media=podcast`): each with its feed, those without one
    /// left out; its refusals and a broken answer said as such.
    @Test func iTunesSearchFindsPodcastsWithTheirFeeds() async throws {
        let router = Router()
        router.get("/v1/search") { request, _ -> Response in
            let q = request.uri.queryParameters
            switch q.get("term") {
            case "busy": return Self.json(429, ["errorMessage": "Slow down"], headers: [.retryAfter: "30"])
            case "broken": return Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: "<html>")))
            case "down": return Self.json(503, ["errorMessage": "Maintenance"])
            default: break
            }
            #expect(q.get("media") == "podcast" && q.get("entity") == "podcast" && q.get("limit") == "10")
            return Self.json(
                200,
                [
                    "resultCount": 3,
                    "results": [
                        [
                            "wrapperType": "track", "kind": "podcast", "collectionId": 1_200_361_736, "collectionName": "Readings & Rhymes",
                            "artistName": "Juke", "feedUrl": "https://feeds.example.org/rhymes.xml", "artworkUrl600": "https://is1.example/600x600bb.jpg",
                            "artworkUrl100": "https://is1.example/100x100bb.jpg", "trackCount": 42, "primaryGenreName": "Books",
                            "releaseDate": "2024-03-05T06:00:00Z",
                        ],
                        ["wrapperType": "track", "kind": "podcast", "collectionId": 7, "collectionName": "No feed listed"],
                        ["wrapperType": "track", "kind": "podcast", "collectionId": 8, "collectionName": "Odd feed", "feedUrl": "ftp://x/feed"],
                    ],
                ])
        }
        try await Self.serve(router) { url in
            let itunes = ITunesSearch(http: .tests, baseURL: url)
            let shows = try await itunes.podcasts("rhymes", limit: 10)
            #expect(
                shows == [
                    PodcastShow(
                        id: "1200361736", title: "Readings & Rhymes", author: "Juke", feedURL: "https://feeds.example.org/rhymes.xml",
                        artworkURL: "https://is1.example/600x600bb.jpg", episodeCount: 42, genre: "Books", latest: "2024-03-05T06:00:00Z")
                ])
            await #expect(throws: CatalogError.rateLimited(retryAfter: 30)) { try await itunes.podcasts("busy", limit: 10) }
            await #expect(throws: CatalogError.malformed("not an iTunes Search result")) { try await itunes.podcasts("broken", limit: 10) }
            await #expect(throws: CatalogError.status(503, "Maintenance")) { try await itunes.podcasts("down", limit: 10) }
        }
    }
}
