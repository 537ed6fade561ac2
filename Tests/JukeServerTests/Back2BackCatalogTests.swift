import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JukeTestSupport
import NIOCore
import Testing

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

/// Searching the outside catalog from a Back2Back session, against a local fake of the iTunes
/// Search API (its documented JSON, its 403 rate limit): results the library holds carry the
/// library track to pick; the rest cannot be picked; failures are told apart.
@Suite(.timeLimit(.minutes(5))) struct Back2BackCatalogTests {
    static func json(_ status: Int, _ object: Any, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "text/javascript; charset=utf-8"  // what iTunes Search really sends
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func fakeITunes() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/search") { request, _ -> Response in
            let term = request.uri.queryParameters.get("term") ?? ""
            if term == "too often" { return json(403, ["errorMessage": "rate limited"], headers: [.retryAfter: "9"]) }
            if term == "broken" { return json(500, ["errorMessage": "Internal error"]) }
            func song(_ id: Int, _ title: String, _ artist: String, _ album: String, _ seconds: Int) -> [String: Any] {
                [
                    "wrapperType": "track", "kind": "song", "trackId": id, "trackName": title, "artistName": artist, "collectionName": album,
                    "trackTimeMillis": seconds * 1000, "releaseDate": "1902-01-01T08:00:00Z", "primaryGenreName": "Classical",
                    "trackViewUrl": "https://music.apple.com/us/album/x?i=\(id)",
                ]
            }
            // The catalog's names differ from the library's tags (a remaster suffix, a featured
            // artist), which the matching engine sees through; another artist's credit it does not.
            return json(
                200,
                [
                    "resultCount": 4,
                    "results": [
                        song(1, "The Entertainer (Remastered 2019)", "Scott Joplin", "Ragtime Classics", 212),
                        song(2, "Maple Leaf Rag", "Scott Joplin feat. Max Morath", "Ragtime Classics", 190),
                        song(3, "Solace", "Scott Joplin", "Ragtime Classics", 300),
                        song(4, "Ode to Joy", "The Ragtime Band", "Ragtime Classics", 200),
                    ],
                ])
        }
        return router
    }

    @Test(arguments: TestBackend.available)
    func catalogResultsCarryTheLibraryTrackToPick(backend: TestBackend) async throws {
        let fake = Application(router: Self.fakeITunes(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await fake.test(.live) { fakeClient in
            let port = try #require(fakeClient.port)
            let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
            try await TestApp.run(backend, configure: { $0.groups[Back2BackSettings.self].catalog = .iTunesSearch(base) }) { app, client in
                let token = try await client.register("searcher")
                _ = try await app.addSongs(Back2BackAPITests.songs)
                #expect(try await client.json(.get, "/api/v1/back2back/catalog/search?q=joplin").status == .unauthorized)

                let found = try await client.json(.get, "/api/v1/back2back/catalog/search?q=scott%20joplin&limit=10", token: token)
                #expect(found.status == .ok, "\(found.json)")
                #expect(found.json["provider"] as? String == "iTunes Search")
                let items = try #require(found.json["items"] as? [[String: Any]])
                #expect(items.map { $0["title"] as? String } == ["The Entertainer (Remastered 2019)", "Maple Leaf Rag", "Solace", "Ode to Joy"])
                let library = items.map { ($0["library_song"] as? [String: Any])?["title"] as? String }
                #expect(library == ["The Entertainer", "Maple Leaf Rag", nil, nil])
                #expect(items[0]["url"] as? String == "https://music.apple.com/us/album/x?i=1")

                // The library track it names is one a person can pick in a session.
                let trackID = try #require((items[0]["library_song"] as? [String: Any])?["track_id"] as? String)
                let session = try await client.json(.post, "/api/v1/back2back/sessions", token: token, body: "{}")
                let id = try #require(session.json["id"] as? String)
                let picked = try await client.json(.post, "/api/v1/back2back/sessions/\(id)/picks", token: token, body: #"{"track_id":"\#(trackID)"}"#)
                #expect((picked.json["now_playing"] as? [String: Any]).flatMap { ($0["song"] as? [String: Any])?["title"] as? String } == "The Entertainer")
                await app.services.back2back.settle()

                let busy = try await client.json(.get, "/api/v1/back2back/catalog/search?q=too%20often", token: token)
                #expect(busy.status == .serviceUnavailable && busy.headers[.retryAfter] == "9" && busy.json["error"] as? String == "catalog_busy")
                let broken = try await client.json(.get, "/api/v1/back2back/catalog/search?q=broken", token: token)
                #expect(broken.status == .badGateway && broken.json["error"] as? String == "catalog_unavailable")
                for bad in ["q=", "q=x&limit=26", "q=x&limit=0", "q=x&offset=1001", "q=\(String(repeating: "a", count: 201))"] {
                    #expect(try await client.json(.get, "/api/v1/back2back/catalog/search?\(bad)", token: token).status == .badRequest, "\(bad)")
                }
            }
        }
    }

    @Test func withNoCatalogConfiguredTheSearchSaysSo() async throws {
        try await TestApp.run(.sqlite) { _, client in
            let token = try await client.register("searcher")
            let none = try await client.json(.get, "/api/v1/back2back/catalog/search?q=joplin", token: token)
            #expect(none.status == .notFound)
            #expect((none.json["message"] as? String ?? "").contains("none is configured"))
        }
    }
}
