import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import NIOCore
import Testing

@testable import DualPlayerServer
@testable import JukePlatform
@testable import JukeServer

/// gpodder.net's API as AntennaPod and gPodder call it, on SQLite and PostgreSQL: signing in
/// with the app password (Basic, or login.json's cookie) and never the web password, devices,
/// subscriptions that are Dual Player's followed shows both ways, episode actions whose play
/// positions are Dual Player's saved positions both ways, and bad input answered 4xx.
@Suite(.timeLimit(.minutes(5))) struct PodcastSyncAPITests {
    static func configure(_ settings: inout ServerConfiguration) {
        settings.groups[DualPlayerSettings.self].webAllowPrivateNetworks = true
        settings.groups[DualPlayerSettings.self].podcastSearchURL = nil
        // 64 KB, so that the sync paths take 1 MB (the action budget is reached before it).
        settings.maxBodySize = 64 * 1024
    }

    static func basic(_ username: String, _ password: String) -> String {
        "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }

    /// A request with Basic credentials (or none), its JSON and headers.
    static func call(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, auth: String? = nil, cookie: String? = nil, body: String? = nil,
        contentType: String = "application/json"
    ) async throws -> (status: HTTPResponse.Status, json: Any?, headers: HTTPFields, text: String) {
        var headers: HTTPFields = [:]
        if let auth { headers[.authorization] = auth }
        if let cookie { headers[.cookie] = cookie }
        if body != nil { headers[.contentType] = contentType }
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        let text = String(buffer: response.body)
        return (response.status, try? JSONSerialization.jsonObject(with: Data(text.utf8)), response.headers, text)
    }

    static func appPassword(_ client: any TestClientProtocol, _ token: String) async throws -> String {
        try #require(try await client.json(.post, "/api/v1/auth/subsonic/app-password", token: token).json["password"] as? String)
    }

    @Test(arguments: TestBackend.available)
    func signingInAndDevices(backend: TestBackend) async throws {
        try await TestApp.run(backend, configure: Self.configure) { _, client in
            let ann = try await client.register("ann")
            let bob = try await client.register("bob")
            let annPassword = try await Self.appPassword(client, ann)
            let bobPassword = try await Self.appPassword(client, bob)
            let annAuth = Self.basic("ann", annPassword)

            // No credentials: 401 with Basic's challenge (what makes urllib send them).
            let none = try await Self.call(client, .get, "/api/2/devices/ann.json")
            #expect(none.status == .unauthorized && none.headers[.wwwAuthenticate]?.hasPrefix("Basic realm=") == true)
            #expect(
                try await Self.call(client, .get, "/api/2/devices/ann.json", auth: Self.basic("ann", "correct horse")).status == .unauthorized,
                "the web password never works here")
            #expect(
                try await Self.call(client, .get, "/api/2/devices/ann.json", auth: Self.basic("bob", bobPassword)).status == .unauthorized,
                "one account's password reaches nothing of another's")
            #expect(try await Self.call(client, .get, "/api/2/devices/ann.json", auth: "Basic !!!").status == .unauthorized)
            let empty = try await Self.call(client, .get, "/api/2/devices/ann.json", auth: annAuth)
            #expect(empty.status == .ok && (empty.json as? [Any])?.isEmpty == true)
            #expect(try await Self.call(client, .get, "/api/2/devices/ANN.json", auth: annAuth).status == .ok, "usernames match without case")

            // login.json: a session cookie, which then signs in alone; logout.json ends it.
            let login = try await Self.call(client, .post, "/api/2/auth/ann/login.json", auth: annAuth, body: "", contentType: "plain/text")
            #expect(login.status == .ok)
            let setCookie = try #require(login.headers[.setCookie])
            #expect(setCookie.hasPrefix("sessionid=") && setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
            let cookie = String(setCookie.split(separator: ";")[0])
            #expect(try await Self.call(client, .get, "/api/2/devices/ann.json", cookie: cookie).status == .ok)
            #expect(try await Self.call(client, .post, "/api/2/auth/ann/login.json", cookie: cookie).status == .ok, "a valid cookie checks out")
            #expect(try await Self.call(client, .get, "/api/2/devices/bob.json", cookie: cookie).status == .unauthorized)
            #expect(
                try await Self.call(client, .post, "/api/2/auth/bob/login.json", cookie: cookie).status == .badRequest,
                "a cookie for another account")
            #expect(try await Self.call(client, .post, "/api/2/auth/bob/logout.json", cookie: cookie).status == .badRequest)
            let logout = try await Self.call(client, .post, "/api/2/auth/ann/logout.json", cookie: cookie)
            #expect(logout.status == .ok && logout.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await Self.call(client, .get, "/api/2/devices/ann.json", cookie: cookie).status == .unauthorized, "logged out")
            #expect(try await Self.call(client, .post, "/api/2/auth/ann/logout.json").status == .ok, "logging out without a cookie is no error")

            // A request signed in by Basic alone starts a session too, as gpodder.net's does
            // (mygpoclient answers the challenge at most three times, then lives on the cookie);
            // one that carries the caller's valid cookie does not start another.
            let basicOnly = try await Self.call(client, .get, "/api/2/devices/ann.json", auth: annAuth)
            let started = try #require(basicOnly.headers[.setCookie].map { String($0.split(separator: ";")[0]) })
            #expect(started.hasPrefix("sessionid=") && started != cookie)
            #expect(try await Self.call(client, .get, "/api/2/devices/ann.json", cookie: started).status == .ok)
            #expect(try await Self.call(client, .get, "/api/2/devices/ann.json", auth: annAuth, cookie: started).headers[.setCookie] == nil)
            let refusedInput = try await Self.call(client, .post, "/api/2/devices/ann/a%20b.json", auth: annAuth, body: "{}")
            #expect(refusedInput.status == .badRequest && refusedInput.headers[.setCookie] != nil, "the session goes with a refusal of input too")
            #expect(try await Self.call(client, .get, "/api/2/devices/ann.json", auth: Self.basic("ann", "wrong")).headers[.setCookie] == nil)

            // Devices: made and updated; only what is given changes.
            let update = try await Self.call(
                client, .post, "/api/2/devices/ann/phone-1.json", auth: annAuth, body: #"{"caption":"Ann's phone","type":"mobile"}"#)
            #expect(update.status == .ok && update.text.isEmpty)
            #expect(try await Self.call(client, .post, "/api/2/devices/ann/phone-1.json", auth: annAuth, body: "").status == .ok, "AntennaPod's empty body")
            #expect(try await Self.call(client, .post, "/api/2/devices/ann/phone-1.json", auth: annAuth, body: #"{"type":"laptop"}"#).status == .ok)
            let listed = try await Self.call(client, .get, "/api/2/devices/ann.json", auth: annAuth)
            let devices = try #require(listed.json as? [[String: Any]])
            #expect(devices.count == 1 && devices[0]["id"] as? String == "phone-1" && devices[0]["caption"] as? String == "Ann's phone")
            #expect(devices[0]["type"] as? String == "laptop" && devices[0]["subscriptions"] as? Int == 0)
            #expect((try await Self.call(client, .get, "/api/2/devices/bob.json", auth: Self.basic("bob", bobPassword)).json as? [Any])?.isEmpty == true)

            // Bad input: a clear 400.
            for (path, body) in [
                ("/api/2/devices/ann/phone-1.json", #"{"type":"toaster"}"#), ("/api/2/devices/ann/phone-1.json", #"{"caption":7}"#),
                ("/api/2/devices/ann/phone-1.json", "[1,2"), ("/api/2/devices/ann/a%20b.json", "{}"),
                ("/api/2/devices/ann/\(String(repeating: "x", count: 65)).json", "{}"),
            ] {
                let refused = try await Self.call(client, .post, path, auth: annAuth, body: body)
                #expect(refused.status == .badRequest, "\(path) \(body): \(refused.status) \(refused.text)")
            }

            // The sign-in limits: wrong passwords are counted; past the limit, 429 and the wait.
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<6 { statuses.append(try await Self.call(client, .get, "/api/2/devices/bob.json", auth: Self.basic("bob", "guess")).status) }
            #expect(statuses.prefix(5).allSatisfy { $0 == .unauthorized } && statuses.last == .tooManyRequests, "\(statuses)")
            let limited = try await Self.call(client, .get, "/api/2/devices/bob.json", auth: Self.basic("bob", bobPassword))
            #expect(limited.status == .ok, "a correct password still signs in: \(limited.status)")
        }
    }

    @Test(arguments: TestBackend.available)
    func subscriptionsAreFollowedShows(backend: TestBackend) async throws {
        let host = FakePodcastHost()
        try await host.run { base in
            try await TestApp.run(backend, configure: Self.configure) { _, client in
                let ann = try await client.register("ann")
                let auth = Self.basic("ann", try await Self.appPassword(client, ann))
                let feed = base.absoluteString + "/feed.xml"
                let followed = try await DualPlayerPodcastTests.subscribe(client, ann, feed)
                #expect(followed.status == .created)
                let showID = try #require(followed.json["id"] as? String)

                // The first download (since 0) lists every followed show.
                let first = try await Self.call(client, .get, "/api/2/subscriptions/ann/phone.json?since=0", auth: auth)
                let firstJSON = try #require(first.json as? [String: Any])
                #expect(firstJSON["add"] as? [String] == [feed] && firstJSON["remove"] as? [String] == [], "\(first.text)")
                let t0 = try #require(firstJSON["timestamp"] as? Int)

                // An upload: the new feed is followed in Dual Player; addresses are sanitized.
                let other = "http://podcasts.invalid/other.xml"
                let upload = try await Self.call(
                    client, .post, "/api/2/subscriptions/ann/phone.json", auth: auth,
                    body: #"{"add":[" \#(other) ","ftp://example.com/feed"],"remove":[]}"#, contentType: "application/x-www-form-urlencoded")
                let uploaded = try #require(upload.json as? [String: Any], "\(upload.status) \(upload.text)")
                let t1 = try #require(uploaded["timestamp"] as? Int)
                #expect(t1 > t0)
                #expect(uploaded["update_urls"] as? [[String]] == [[" \(other) ", other], ["ftp://example.com/feed", ""]])
                let shows = try await client.json(.get, "/api/v1/dual/podcasts", token: ann)
                #expect(Set((shows.json["items"] as? [[String: Any]])?.compactMap { $0["feed_url"] as? String } ?? []) == [feed, other], "\(shows.json)")

                // The device does not get its own change back; another device does.
                let mine = try #require(try await Self.call(client, .get, "/api/2/subscriptions/ann/phone.json?since=\(t1)", auth: auth).json as? [String: Any])
                #expect(mine["add"] as? [String] == [] && mine["remove"] as? [String] == [])
                let laptop = try #require(
                    try await Self.call(client, .get, "/api/2/subscriptions/ann/laptop.json?since=\(t0)", auth: auth).json as? [String: Any])
                #expect(laptop["add"] as? [String] == [other] && laptop["remove"] as? [String] == [])

                // Unfollowed in Juke's page: removed in the next download.
                #expect(try await client.json(.delete, "/api/v1/dual/podcasts/\(showID)", token: ann).status == .noContent)
                let after = try #require(
                    try await Self.call(client, .get, "/api/2/subscriptions/ann/phone.json?since=\(t1)", auth: auth).json as? [String: Any])
                #expect(after["add"] as? [String] == [] && after["remove"] as? [String] == [feed], "\(after)")
                let t2 = try #require(after["timestamp"] as? Int)
                // Followed again in the page: added in the next download.
                #expect(try await DualPlayerPodcastTests.subscribe(client, ann, feed).status == .created)
                let again = try #require(
                    try await Self.call(client, .get, "/api/2/subscriptions/ann/phone.json?since=\(t2)", auth: auth).json as? [String: Any])
                #expect(again["add"] as? [String] == [feed] && again["remove"] as? [String] == [])

                // Removed by a device: unfollowed in Dual Player.
                let removal = try await Self.call(client, .post, "/api/2/subscriptions/ann/phone.json", auth: auth, body: #"{"remove":["\#(other)"]}"#)
                #expect(removal.status == .ok)
                let left = try await client.json(.get, "/api/v1/dual/podcasts", token: ann)
                #expect((left.json["items"] as? [[String: Any]])?.compactMap { $0["feed_url"] as? String } == [feed])

                // The simple API's lists, and the device list's count.
                #expect(try await Self.call(client, .get, "/subscriptions/ann.json", auth: auth).json as? [String] == [feed])
                #expect(try await Self.call(client, .get, "/subscriptions/ann.txt", auth: auth).text == feed + "\n")
                #expect(try await Self.call(client, .get, "/subscriptions/ann/phone.opml", auth: auth).text.contains("xmlUrl=\"\(feed)\""))
                #expect(try await Self.call(client, .get, "/subscriptions/ann/unknown-device.json", auth: auth).status == .notFound)
                let devices = try #require(try await Self.call(client, .get, "/api/2/devices/ann.json", auth: auth).json as? [[String: Any]])
                #expect(devices.compactMap { $0["id"] as? String } == ["laptop", "phone"] && devices.allSatisfy { $0["subscriptions"] as? Int == 1 })

                // Bad input: a clear 400.
                for (query, body) in [
                    ("", #"{"add":["\#(feed)"],"remove":["\#(feed)"]}"#), ("", #"{"add":"x"}"#), ("", "not json"), ("", "[]"),
                    ("", #"{"add":[\#(Array(repeating: "\"http://a.invalid/f\"", count: 1001).joined(separator: ","))]}"#),
                ] {
                    let refused = try await Self.call(client, .post, "/api/2/subscriptions/ann/phone.json\(query)", auth: auth, body: body)
                    #expect(refused.status == .badRequest, "\(body.prefix(80)): \(refused.status) \(refused.text)")
                }
                for since in ["-1", "abc", "1.5"] {
                    #expect(try await Self.call(client, .get, "/api/2/subscriptions/ann/phone.json?since=\(since)", auth: auth).status == .badRequest)
                }
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func playActionsArePositions(backend: TestBackend) async throws {
        let host = FakePodcastHost()
        try await host.run { base in
            try await TestApp.run(backend, configure: Self.configure) { _, client in
                let ann = try await client.register("ann")
                let bob = try await client.register("bob")
                let auth = Self.basic("ann", try await Self.appPassword(client, ann))
                let bobAuth = Self.basic("bob", try await Self.appPassword(client, bob))
                let feed = base.absoluteString + "/feed.xml"
                let showID = try #require(try await DualPlayerPodcastTests.subscribe(client, ann, feed).json["id"] as? String)
                let page = try await client.json(.get, "/api/v1/dual/podcasts/\(showID)/episodes", token: ann)
                let episodes = try #require(page.json["items"] as? [[String: Any]])
                let first = try #require(episodes.first { $0["episode"] as? Int == 1 }?["id"] as? String)
                let second = try #require(episodes.first { $0["episode"] as? Int == 2 }?["id"] as? String)
                let audio1 = base.absoluteString + "/episodes/1.mp3"

                // A play action from a phone becomes the episode's position in Dual Player.
                let actions = """
                    [{"podcast":"\(feed)","episode":"\(audio1)","device":"phone","action":"play","started":10,"position":120,"total":751,
                      "timestamp":"2026-01-02T03:04:05"},
                     {"podcast":"\(feed)","episode":"\(audio1)","device":"phone","action":"download","timestamp":"2026-01-02T03:00:00"},
                     {"podcast":"http://elsewhere.invalid/feed","episode":"http://elsewhere.invalid/1.mp3","action":"play","position":5,
                      "started":0,"total":60}]
                    """
                let upload = try await Self.call(client, .post, "/api/2/episodes/ann.json", auth: auth, body: actions)
                let uploaded = try #require(upload.json as? [String: Any], "\(upload.status) \(upload.text)")
                let t1 = try #require(uploaded["timestamp"] as? Int)
                #expect(uploaded["update_urls"] as? [[String]] == [])
                func position(_ id: String) async throws -> Double? {
                    let list = try await client.json(.get, "/api/v1/dual/podcasts/\(showID)/episodes", token: ann)
                    return (list.json["items"] as? [[String: Any]])?.first { $0["id"] as? String == id }?["position"] as? Double
                }
                #expect(try await position(first) == 120)
                let saved = try await client.json(.get, "/api/v1/dual/positions?items=episode:\(first)", token: ann)
                #expect("\(saved.json)".contains("1767323045000"), "stamped with the action's time: \(saved.json)")

                // The actions come back as they were sent, once (the position they wrote is not
                // sent again as one of the page's).
                let all = try #require(try await Self.call(client, .get, "/api/2/episodes/ann.json?since=0", auth: auth).json as? [String: Any])
                let back = try #require(all["actions"] as? [[String: Any]])
                #expect(back.count == 3, "\(back)")
                let play = try #require(back.first { $0["action"] as? String == "play" && $0["episode"] as? String == audio1 })
                #expect(play["position"] as? Int == 120 && play["started"] as? Int == 10 && play["total"] as? Int == 751)
                #expect(play["timestamp"] as? String == "2026-01-02T03:04:05" && play["device"] as? String == "phone" && play["podcast"] as? String == feed)
                let none = try #require(try await Self.call(client, .get, "/api/2/episodes/ann.json?since=\(t1)", auth: auth).json as? [String: Any])
                #expect((none["actions"] as? [Any])?.isEmpty == true, "\(none)")

                // An older play action does not undo a newer position.
                let older =
                    #"[{"podcast":"\#(feed)","episode":"\#(audio1)","action":"play","started":0,"position":30,"total":751,"timestamp":"2025-01-01T00:00:00"}]"#
                #expect(try await Self.call(client, .post, "/api/2/episodes/ann.json", auth: auth, body: older).status == .ok)
                #expect(try await position(first) == 120)

                // A position saved in Juke's page comes back as a play action (not for a device).
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                let body = #"{"positions":[{"item":"episode:\#(second)","seconds":333.5,"updated_at":\#(now)}]}"#
                #expect(try await client.json(.put, "/api/v1/dual/positions", token: ann, body: body).status == .ok)
                let later = try #require(try await Self.call(client, .get, "/api/2/episodes/ann.json?since=\(t1)", auth: auth).json as? [String: Any])
                let fromPage = try #require((later["actions"] as? [[String: Any]])?.first { $0["action"] as? String == "play" }, "\(later)")
                #expect(fromPage["episode"] as? String == base.absoluteString + "/episodes/2.mp3" && fromPage["podcast"] as? String == feed)
                #expect(fromPage["position"] as? Int == 333 && fromPage["total"] as? Int == 752 && fromPage["guid"] as? String == "fake-episode-2")
                #expect(fromPage["device"] == nil)
                let byDevice = try #require(
                    try await Self.call(client, .get, "/api/2/episodes/ann.json?since=0&device=phone", auth: auth).json as? [String: Any])
                #expect((byDevice["actions"] as? [[String: Any]])?.count == 2, "the phone's own: \(byDevice)")
                let ofShow = try #require(
                    try await Self.call(client, .get, "/api/2/episodes/ann.json?since=0&podcast=\(feed)&aggregated=true", auth: auth).json as? [String: Any])
                #expect((ofShow["actions"] as? [[String: Any]])?.count == 2, "the latest of each of the show's episodes: \(ofShow)")

                // A play action near the end marks the episode heard.
                let end = #"[{"podcast":"\#(feed)","episode":"\#(audio1)","guid":"fake-episode-1","action":"play","started":700,"position":751,"total":751}]"#
                #expect(try await Self.call(client, .post, "/api/2/episodes/ann.json", auth: auth, body: end).status == .ok)
                let heard = try await client.json(.get, "/api/v1/dual/podcasts/\(showID)/episodes", token: ann)
                #expect((heard.json["items"] as? [[String: Any]])?.first { $0["id"] as? String == first }?["played"] as? Bool == true)

                // One account's actions are its own.
                let bobs = try #require(try await Self.call(client, .get, "/api/2/episodes/bob.json?since=0", auth: bobAuth).json as? [String: Any])
                #expect((bobs["actions"] as? [Any])?.isEmpty == true)
                #expect(try await Self.call(client, .get, "/api/2/episodes/ann.json", auth: bobAuth).status == .unauthorized)

                // Bad input: a clear 400 (and nothing kept).
                let many =
                    "["
                    + Array(repeating: #"{"podcast":"http://a.invalid/f","episode":"http://a.invalid/1","action":"new"}"#, count: 1001)
                    .joined(separator: ",") + "]"
                for bad in [
                    "{}", "[1]", #"[{"podcast":"\#(feed)","episode":"\#(audio1)","action":"jump"}]"#,
                    #"[{"podcast":"\#(feed)","episode":"\#(audio1)"}]"#, #"[{"episode":"\#(audio1)","action":"new"}]"#,
                    #"[{"podcast":"\#(feed)","episode":"\#(audio1)","action":"play","position":"ten"}]"#,
                    #"[{"podcast":"\#(feed)","episode":"\#(audio1)","action":"play","position":-4}]"#,
                    #"[{"podcast":"\#(feed)","episode":"\#(audio1)","action":"download","position":4}]"#,
                    #"[{"podcast":"\#(feed)","episode":"\#(audio1)","action":"new","timestamp":"yesterday"}]"#,
                    #"[{"podcast":"\#(feed)","episode":"\#(audio1)","action":"new","device":"a b"}]"#, many,
                ] {
                    let refused = try await Self.call(client, .post, "/api/2/episodes/ann.json", auth: auth, body: bad)
                    #expect(refused.status == .badRequest, "\(bad.prefix(100)): \(refused.status) \(refused.text)")
                }
                let huge = String(repeating: " ", count: 1_100_000)
                #expect(try await Self.call(client, .post, "/api/2/episodes/ann.json", auth: auth, body: huge).status == .contentTooLarge)
                for query in ["since=x", "podcast=ftp://x", "device=a%20b"] {
                    #expect(try await Self.call(client, .get, "/api/2/episodes/ann.json?\(query)", auth: auth).status == .badRequest, "\(query)")
                }
            }
        }
    }
}
