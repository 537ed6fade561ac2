import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeTestSupport
import NIOCore
import Testing

@testable import JukePlatform
@testable import JukeServer

/// The Subsonic API under /rest against a known library, on SQLite and PostgreSQL: the
/// envelope, every form of signing in and its errors, each browsing, list, search and media
/// endpoint's answer.
@Suite(.timeLimit(.minutes(5))) struct SubsonicAPITests {
    static let songs: [(title: String, artist: String, genre: String, year: Int)] = [
        ("Ode to Joy", "Ludwig van Beethoven", "Classical", 1824),
        ("Für Elise", "Ludwig van Beethoven", "Classical", 1810),
        ("Greensleeves", "Traditional", "Folk", 1580),
        ("The Entertainer", "Scott Joplin", "Ragtime", 1902),
    ]

    @Test(arguments: TestBackend.available)
    func envelopeAndErrors(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let token = try await client.register("admin", password: "web password 1")
            let key = try await client.apiKey(token: token)
            // Both spellings, both formats, GET and a form POST.
            let ping = try await client.rest("ping", "apiKey=\(key)")
            #expect(ping.status == "ok" && ping.body["version"] as? String == "1.16.1" && ping.body["type"] as? String == "juke")
            #expect(ping.body["openSubsonic"] as? Bool == true && ping.body["serverVersion"] != nil)
            let xml = try await client.execute(uri: "/rest/ping.view?v=1.16.1&c=test&apiKey=\(key)", method: .get)
            let xmlText = String(buffer: xml.body)
            #expect(xml.status == .ok && xml.headers[.contentType]?.hasPrefix("application/xml") == true)
            #expect(xmlText.contains(#"<subsonic-response xmlns="http://subsonic.org/restapi" status="ok" version="1.16.1" type="juke""#))
            let posted = try await client.execute(
                uri: "/rest/ping.view", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "v=1.16.1&c=test&f=json&apiKey=\(key)"))
            #expect(String(buffer: posted.body).contains(#""status":"ok""#))

            // The extensions are public; exactly what is implemented.
            let extensions = try await client.rest("getOpenSubsonicExtensions", "")
            let names = (extensions.body["openSubsonicExtensions"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(
                names == ["apiKeyAuthentication", "formPost", "transcodeOffset", "indexBasedQueue", "topSongsByArtistId", "songLyrics", "getPodcastEpisode"])

            #expect(try await client.rest("nope", "apiKey=\(key)").code == 0)
            #expect(try await client.execute(uri: "/rest/nope?f=json", method: .get).status == .notFound)
            #expect(try await client.rest("ping", "").code == 10)
            #expect(try await client.rest("ping", "u=admin").code == 10)
            #expect(try await client.rest("ping", "apiKey=\(key)", version: nil).code == 10)
            #expect(try await client.rest("ping", "apiKey=\(key)", version: "1.17.0").code == 30)
            #expect(try await client.rest("ping", "apiKey=\(key)", version: "0.1.0").code == 20)
            #expect(try await client.rest("ping", "apiKey=wrong").code == 44)
            #expect(try await client.rest("ping", "apiKey=\(key)&u=admin").code == 43)
            #expect(try await client.rest("ping", "u=admin&p=x&t=y&s=z").code == 43)
            // The web password never works here.
            #expect(try await client.rest("ping", "u=admin&p=web%20password%201").code == 40)
            #expect(try await client.rest("getUsers", "apiKey=\(key)").status == "ok")
            #expect(try await client.rest("ping", "apiKey=\(key)&x=a%01b").code == 0)
            // NUL is refused in any address before any route (TextInputMiddleware): a 400, not a 500.
            #expect(try await client.execute(uri: "/rest/ping?f=json&v=1.16.1&apiKey=\(key)&x=a%00b", method: .get).status == .badRequest)
        }
    }

    @Test(arguments: TestBackend.available)
    func everyFormOfSigningIn(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let ann = try await client.register("ann")
            let bob = try await client.register("bob")
            #expect(try await client.rest("ping", "u=ann&p=anything").code == 40, "no app password yet")
            let made = try await client.json(.post, "/api/v1/auth/subsonic/app-password", token: ann)
            #expect(made.status == .created)
            let password = try #require(made.json["password"] as? String)
            #expect(try await client.rest("ping", "u=ann&p=\(password)").status == "ok")
            let hex = password.utf8.map { String(format: "%02x", $0) }.joined()
            #expect(try await client.rest("ping", "u=ann&p=enc:\(hex)").status == "ok")
            let salt = "c19b2d"
            #expect(try await client.rest("ping", "u=ann&t=\(AppPasswordCheck.md5Hex(password + salt))&s=\(salt)").status == "ok")
            #expect(try await client.rest("ping", "u=ann&t=\(AppPasswordCheck.md5Hex(password + "x"))&s=\(salt)").code == 40)
            #expect(try await client.rest("ping", "u=bob&p=\(password)").code == 40, "ann's app password is not bob's")

            // API keys: made, named, listed, described by tokenInfo, revoked.
            let key = try await client.apiKey(token: ann, name: "Phone")
            let info = try await client.rest("tokenInfo", "apiKey=\(key)")
            #expect((info.body["tokenInfo"] as? [String: Any])?["username"] as? String == "ann")
            #expect(try await client.rest("tokenInfo", "u=ann&p=\(password)").code == 44)
            let listed = try await client.json(.get, "/api/v1/auth/subsonic", token: ann)
            let keys = try #require(listed.json["api_keys"] as? [[String: Any]])
            #expect(keys.map { $0["name"] as? String } == ["Phone"] && keys.first?["last_used_at"] != nil && keys.first?["key"] == nil)
            #expect(listed.json["app_password_created_at"] != nil)
            let keyID = try #require(keys.first?["id"] as? String)
            // Bob sees none of ann's keys and cannot revoke them.
            #expect((try await client.json(.get, "/api/v1/auth/subsonic", token: bob).json["api_keys"] as? [Any])?.isEmpty == true)
            #expect(try await client.json(.delete, "/api/v1/auth/subsonic/api-keys/\(keyID)", token: bob).status == .notFound)
            #expect(try await client.rest("ping", "apiKey=\(key)").status == "ok")
            #expect(try await client.json(.delete, "/api/v1/auth/subsonic/api-keys/\(keyID)", token: ann).status == .noContent)
            #expect(try await client.rest("ping", "apiKey=\(key)").code == 44)
            #expect(try await client.json(.delete, "/api/v1/auth/subsonic/api-keys/not-an-id", token: ann).status == .badRequest)
            #expect(try await client.json(.post, "/api/v1/auth/subsonic/api-keys", token: ann, body: #"{"name":""}"#).status.code >= 400)
            #expect(try await client.json(.post, "/api/v1/auth/subsonic/api-keys", body: #"{"name":"x"}"#).status == .unauthorized)

            // The app password goes, and with it the legacy forms.
            #expect(try await client.json(.delete, "/api/v1/auth/subsonic/app-password", token: ann).status == .noContent)
            #expect(try await client.rest("ping", "u=ann&p=\(password)").code == 40)
        }
    }

    @Test(arguments: TestBackend.available)
    func wrongGuessesMeetTheSignInLimits(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let ann = try await client.register("ann")
            let password = try #require(try await client.json(.post, "/api/v1/auth/subsonic/app-password", token: ann).json["password"] as? String)
            for _ in 0..<5 { #expect(try await client.rest("ping", "u=ann&p=wrong").message?.hasPrefix("Wrong") == true) }
            let limited = try await client.rest("ping", "u=ann&p=wrong")
            #expect(limited.code == 40 && limited.message?.hasPrefix("Too many failed sign-ins") == true)
            // The right app password still signs in: it is 137 bits no guesser reaches.
            #expect(try await client.rest("ping", "u=ann&p=\(password)").status == "ok")
        }
    }

    @Test(arguments: TestBackend.available)
    func browsesTheLibrary(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let admin = try await client.register("admin")
            let key = try await client.apiKey(token: admin)
            _ = try await app.addSongs(Self.songs)
            func call(_ method: String, _ query: String = "") async throws -> [String: Any] {
                let r = try await client.rest(method, "apiKey=\(key)" + (query.isEmpty ? "" : "&" + query))
                #expect(r.status == "ok", "\(method)?\(query): \(r.body)")
                return r.body
            }

            let folders = try await call("getMusicFolders")
            #expect(((folders["musicFolders"] as? [String: Any])?["musicFolder"] as? [[String: Any]])?.first?["id"] as? Int == 1)

            let artists = try await call("getArtists")
            let index = try #require((artists["artists"] as? [String: Any])?["index"] as? [[String: Any]])
            #expect(index.map { $0["name"] as? String } == ["L", "S", "T"])
            let beethoven = try #require((index.first?["artist"] as? [[String: Any]])?.first)
            #expect(beethoven["name"] as? String == "Ludwig van Beethoven" && beethoven["albumCount"] as? Int == 1)
            let artistID = try #require(beethoven["id"] as? String)
            #expect(artistID.hasPrefix("ar-"))
            let indexes = try await call("getIndexes")
            #expect(((indexes["indexes"] as? [String: Any])?["index"] as? [[String: Any]])?.count == 3)

            let artist = try #require(try await call("getArtist", "id=\(artistID)")["artist"] as? [String: Any])
            let albums = try #require(artist["album"] as? [[String: Any]])
            #expect(albums.map { $0["name"] as? String } == ["Ludwig van Beethoven Hits"])
            let albumID = try #require(albums.first?["id"] as? String)
            let album = try #require(try await call("getAlbum", "id=\(albumID)")["album"] as? [String: Any])
            let songs = try #require(album["song"] as? [[String: Any]])
            #expect(Set(songs.compactMap { $0["title"] as? String }) == ["Ode to Joy", "Für Elise"] && album["songCount"] as? Int == 2)
            let songID = try #require(songs.first?["id"] as? String)
            let song = try #require(try await call("getSong", "id=\(songID)")["song"] as? [String: Any])
            #expect(song["albumId"] as? String == albumID && song["artistId"] as? String == artistID && song["suffix"] as? String == "wav")
            #expect((song["path"] as? String)?.hasPrefix("/") == false, "no server path leaves")

            let directory = try #require(try await call("getMusicDirectory", "id=\(artistID)")["directory"] as? [String: Any])
            #expect((directory["child"] as? [[String: Any]])?.first?["isDir"] as? Bool == true)
            let albumDirectory = try #require(try await call("getMusicDirectory", "id=\(albumID)")["directory"] as? [String: Any])
            #expect((albumDirectory["child"] as? [[String: Any]])?.count == 2)

            let genres = try #require((try await call("getGenres")["genres"] as? [String: Any])?["genre"] as? [[String: Any]])
            #expect(genres.map { $0["value"] as? String } == ["Classical", "Folk", "Ragtime"])
            #expect(genres.first?["songCount"] as? Int == 2 && genres.first?["albumCount"] as? Int == 1)

            func albumList(_ query: String, _ method: String = "getAlbumList2") async throws -> [String] {
                let body = try await call(method, query)
                let list = (body[method == "getAlbumList2" ? "albumList2" : "albumList"] as? [String: Any])?["album"] as? [[String: Any]]
                return list?.compactMap { ($0["name"] ?? $0["title"]) as? String } ?? []
            }
            #expect(try await albumList("type=alphabeticalByName") == ["Ludwig van Beethoven Hits", "Scott Joplin Hits", "Traditional Hits"])
            #expect(try await albumList("type=alphabeticalByArtist&size=2&offset=1") == ["Scott Joplin Hits", "Traditional Hits"])
            #expect(try await albumList("type=byYear&fromYear=1800&toYear=1900") == ["Ludwig van Beethoven Hits"])
            #expect(try await albumList("type=byGenre&genre=Folk") == ["Traditional Hits"])
            #expect(Set(try await albumList("type=random&size=10")).count == 3)
            #expect(try await albumList("type=newest").count == 3)
            #expect(try await albumList("type=frequent").isEmpty, "nothing played yet")
            #expect(try await albumList("type=recent").isEmpty, "nothing played yet")
            #expect(try await albumList("type=starred").isEmpty)
            #expect(try await albumList("type=alphabeticalByName", "getAlbumList") == ["Ludwig van Beethoven Hits", "Scott Joplin Hits", "Traditional Hits"])

            let random = try #require((try await call("getRandomSongs", "size=3")["randomSongs"] as? [String: Any])?["song"] as? [[String: Any]])
            #expect(random.count == 3)
            let classical = (try await call("getSongsByGenre", "genre=Classical")["songsByGenre"] as? [String: Any])?["song"] as? [[String: Any]]
            #expect(classical?.count == 2)

            // An empty query pages the whole library (how clients sync).
            let all = try #require(try await call("search3", "query=%22%22&songCount=3&songOffset=2")["searchResult3"] as? [String: Any])
            #expect((all["song"] as? [[String: Any]])?.count == 2 && (all["artist"] as? [[String: Any]])?.count == 3)
            #expect((all["album"] as? [[String: Any]])?.count == 3)
            let found = try #require(try await call("search3", "query=joplin")["searchResult3"] as? [String: Any])
            #expect((found["song"] as? [[String: Any]])?.map { $0["title"] as? String } == ["The Entertainer"])
            #expect((found["artist"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Scott Joplin"])
            let found2 = try #require(try await call("search2", "query=green")["searchResult2"] as? [String: Any])
            #expect((found2["album"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Traditional Hits"])

            let status = try #require(try await call("getScanStatus")["scanStatus"] as? [String: Any])
            #expect(status["count"] as? Int == 4)
            #expect(try await call("startScan")["scanStatus"] != nil)

            let me = try #require(try await call("getUser", "username=admin")["user"] as? [String: Any])
            #expect(me["adminRole"] as? Bool == true && me["streamRole"] as? Bool == true)
            #expect(((try await call("getUsers")["users"] as? [String: Any])?["user"] as? [[String: Any]])?.count == 1)

            // A second account: no admin's endpoints, no one else's user.
            let guest = try await client.register("guest")
            let guestKey = try await client.apiKey(token: guest)
            #expect(try await client.rest("startScan", "apiKey=\(guestKey)").code == 50)
            #expect(try await client.rest("getUsers", "apiKey=\(guestKey)").code == 50)
            #expect(try await client.rest("getUser", "apiKey=\(guestKey)&username=admin").code == 50)
            #expect(try await client.rest("getUser", "apiKey=\(guestKey)&username=guest").status == "ok")

            // Bad input: the protocol's errors, never a 500.
            #expect(try await client.rest("getAlbum", "apiKey=\(key)").code == 10)
            #expect(try await client.rest("getAlbum", "apiKey=\(key)&id=al-\(UUID())").code == 70)
            #expect(try await client.rest("getAlbum", "apiKey=\(key)&id=\(artistID)").code == 70)
            #expect(try await client.rest("getSong", "apiKey=\(key)&id=banana").code == 70)
            #expect(try await client.rest("getArtist", "apiKey=\(key)&id=ar-\(UUID())").code == 70)
            #expect(try await client.rest("getAlbumList2", "apiKey=\(key)&type=newest&size=100000").code == 0)
            #expect(try await client.rest("getAlbumList2", "apiKey=\(key)&type=newest&offset=-1").code == 0)
            #expect(try await client.rest("getAlbumList2", "apiKey=\(key)&type=whatever").code == 0)
            #expect(try await client.rest("search3", "apiKey=\(key)&query=a&songCount=99999").code == 0)
            #expect(try await client.rest("getRandomSongs", "apiKey=\(key)&size=0").code == 0)
            #expect(try await client.rest("getMusicDirectory", "apiKey=\(key)&id=\(songID)").code == 70)
        }
    }

    @Test(arguments: TestBackend.available)
    func servesAudioAndCovers(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let admin = try await client.register("admin")
            let key = try await client.apiKey(token: admin)
            _ = try await app.addSongs(Self.songs)
            let search = try await client.rest("search3", "apiKey=\(key)&query=joplin")
            let song = try #require(((search.body["searchResult3"] as? [String: Any])?["song"] as? [[String: Any]])?.first)
            let id = try #require(song["id"] as? String)
            let auth = "v=1.16.1&c=test&apiKey=\(key)"

            let whole = try await client.execute(uri: "/rest/stream?\(auth)&id=\(id)", method: .get)
            #expect(whole.status == .ok && whole.headers[.contentType] == "audio/wav" && whole.body.readableBytes == song["size"] as? Int)
            let part = try await client.execute(uri: "/rest/stream.view?\(auth)&id=\(id)", method: .get, headers: [.range: "bytes=0-9"])
            #expect(part.status == .partialContent && part.body.readableBytes == 10)
            let raw = try await client.execute(uri: "/rest/stream?\(auth)&id=\(id)&format=raw&maxBitRate=64", method: .get)
            #expect(raw.status == .ok && raw.headers[.contentType] == "audio/wav")

            let download = try await client.execute(uri: "/rest/download?\(auth)&id=\(id)", method: .get)
            #expect(download.status == .ok && download.headers[.contentDisposition]?.contains("attachment") == true)

            let cover = try await client.execute(uri: "/rest/getCoverArt?\(auth)&id=\(song["coverArt"] as? String ?? "")&size=300", method: .get)
            #expect(cover.status == .ok && cover.headers[.contentType] == "image/png")
            let albumCover = try await client.execute(uri: "/rest/getCoverArt?\(auth)&id=\(song["albumId"] as? String ?? "")", method: .get)
            #expect(albumCover.status == .ok && albumCover.headers[.contentType] == "image/png")
            let artistCover = try await client.execute(uri: "/rest/getCoverArt?\(auth)&id=\(song["artistId"] as? String ?? "")", method: .get)
            #expect(artistCover.status == .ok)

            #expect(try await client.rest("stream", "apiKey=\(key)&id=tr-\(UUID())").code == 70)
            #expect(try await client.rest("stream", "apiKey=\(key)&id=\(id)&timeOffset=-3").code == 0)
            #expect(try await client.rest("getCoverArt", "apiKey=\(key)&id=tr-\(UUID())").code == 70)
            #expect(try await client.rest("getCoverArt", "apiKey=\(key)&id=\(id)&size=0").code == 0)
            #expect(try await client.rest("download", "apiKey=\(key)").code == 10)
        }
    }
}

struct SubsonicAnswer {
    let body: [String: Any]
    var status: String? { body["status"] as? String }
    var code: Int? { (body["error"] as? [String: Any])?["code"] as? Int }
    var message: String? { (body["error"] as? [String: Any])?["message"] as? String }
}

extension TestClientProtocol {
    /// A Subsonic call in JSON; `query` holds its own parameters and credentials.
    func rest(_ method: String, _ query: String, version: String? = "1.16.1") async throws -> SubsonicAnswer {
        let common = "f=json&c=tests" + (version.map { "&v=\($0)" } ?? "")
        let response = try await execute(uri: "/rest/\(method)?\(common)" + (query.isEmpty ? "" : "&" + query), method: .get)
        #expect(response.status == .ok || response.status == .notFound, "/rest/\(method): HTTP \(response.status)")
        let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
        return SubsonicAnswer(body: object?["subsonic-response"] as? [String: Any] ?? [:])
    }

    /// A new API key of the account signed in with `token`.
    func apiKey(token: String, name: String = "Tests") async throws -> String {
        let r = try await json(.post, "/api/v1/auth/subsonic/api-keys", token: token, body: #"{"name":"\#(name)"}"#)
        #expect(r.status == .created, "\(r.json)")
        return r.json["key"] as? String ?? ""
    }
}
