import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import JukeCore
import JukeTestSupport
import Logging
import NIOCore
import Storage
import Synchronization
import Testing

@testable import JukePlatform
@testable import JukeServer
@testable import RunBeatServer

/// RunBeat's Spotify against a local fake of Spotify's Accounts service and Web API, on both
/// databases: connecting with PKCE through the callback, tokens sealed at rest and refreshed
/// (before they run out, on a 401, by the 15-minute job), invalid_grant asking the runner to
/// connect again, playlists in pages, devices, 429 passed on with Retry-After, and the
/// workout's phases playing their playlists once each, resumed on a device after the playing
/// one went away, paused at the end, paused and resumed with the runner.
@Suite(.timeLimit(.minutes(5))) struct RunBeatSpotifyTests {
    static func settings(_ fake: URL) -> SpotifySettings {
        SpotifySettings(
            clientID: "juke-test-client", accountsURL: fake, apiURL: fake.appendingPathComponent("v1"),
            redirectURL: URL(string: "http://127.0.0.1:9/runbeat/spotify/callback"))
    }

    /// The session cookie a signed-in browser sends with the callback (Spotify sends the
    /// browser back: no Authorization header, only its cookies).
    static func browser(_ token: String) -> HTTPFields { [.cookie: "juke_session=\(token)"] }

    /// Connects `token`'s runner: the authorisation address, the fake's approval, the callback.
    static func connect(_ client: any TestClientProtocol, _ fake: FakeSpotify, token: String) async throws {
        let start = try await client.json(.post, "/api/v1/runbeat/spotify/connect", token: token)
        #expect(start.status == .ok)
        let authorize = try #require((start.json["authorize_url"] as? String).flatMap(URL.init(string:)))
        let back = try #require(fake.approve(authorize).flatMap(URL.init(string:)))
        #expect(back.path == "/runbeat/spotify/callback")
        let landed = try await client.json(.get, "/runbeat/spotify/callback?\(back.query ?? "")", headers: browser(token))
        #expect(landed.status == .seeOther || landed.status == .found)
        #expect(landed.headers[.location] == "/runbeat?spotify=connected")
    }

    @Test(arguments: TestBackend.available)
    func connectingTokensPlaylistsDevicesAndTheJob(backend: TestBackend) async throws {
        let clock = HandClock()
        let fake = FakeSpotify(playlistCount: 120, devices: [("phone-1", "Runner's phone"), ("laptop-1", "Laptop")], now: { clock.now.withLock { $0 } })
        try await fake.run { url in
            try await TestApp.run(backend, clock: clock.wall, configure: { $0.groups[RunBeatSettings.self].spotify = Self.settings(url) }) { app, client in
                let admin = try await client.register("admin")
                let ann = try await client.register("ann")
                var status = try await client.json(.get, "/api/v1/runbeat/spotify", token: ann)
                #expect(status.json["configured"] as? Bool == true && status.json["status"] as? String == "disconnected")
                #expect(try await client.json(.get, "/api/v1/runbeat/spotify/playlists", token: ann).status == .notFound)

                // Refused at Spotify: back on the page with why, nothing stored.
                let refused = try await client.json(.post, "/api/v1/runbeat/spotify/connect", token: ann)
                let refusedURL = try #require((refused.json["authorize_url"] as? String).flatMap(URLComponents.init(string:)))
                let state = try #require(refusedURL.queryItems?.first { $0.name == "state" }?.value)
                #expect(refusedURL.queryItems?.first { $0.name == "code_challenge_method" }?.value == "S256")
                let denied = try await client.json(.get, "/runbeat/spotify/callback?error=access_denied&state=\(state)", headers: Self.browser(ann))
                #expect(denied.headers[.location]?.hasPrefix("/runbeat?spotify=failed&reason=You%20did%20not%20allow") == true)

                try await Self.connect(client, fake, token: ann)
                // The code is exchanged once: a callback opened again is refused.
                #expect(fake.tokenRequests == ["authorization_code"])
                status = try await client.json(.get, "/api/v1/runbeat/spotify", token: ann)
                #expect(status.json["status"] as? String == "connected")
                let expires = try #require(status.json["expires_at"] as? Int64)
                #expect(expires == Int64((clock.now.withLock { $0 }.timeIntervalSince1970 + 3600) * 1000))

                // Sealed at rest: no token in the row reads as one.
                let spotify = try #require(app.services.runBeatApp.spotify)
                let rows = try await spotify.store.expiring(before: .distantFuture)
                #expect(rows.count == 1)
                for sealed in [rows[0].accessToken, rows[0].refreshToken] {
                    #expect(sealed?.hasPrefix("v1:") == true && sealed?.contains("access-") == false && sealed?.contains("refresh-") == false)
                }

                // Playlists in pages.
                var page = try await client.json(.get, "/api/v1/runbeat/spotify/playlists?limit=50", token: ann)
                #expect((page.json["playlists"] as? [[String: Any]])?.count == 50 && page.json["more"] as? Bool == true)
                #expect(page.json["total"] as? Int == 120)
                page = try await client.json(.get, "/api/v1/runbeat/spotify/playlists?limit=50&offset=100", token: ann)
                #expect((page.json["playlists"] as? [[String: Any]])?.first?["id"] as? String == FakeSpotify.playlistID(100))
                #expect((page.json["playlists"] as? [[String: Any]])?.count == 20 && page.json["more"] as? Bool == false)
                #expect(try await client.json(.get, "/api/v1/runbeat/spotify/playlists?limit=51", token: ann).status == .badRequest)

                // A 401: refreshed and asked again, once.
                fake.expireAccessTokens()
                #expect(try await client.json(.get, "/api/v1/runbeat/spotify/playlists", token: ann).status == .ok)
                #expect(fake.tokenRequests == ["authorization_code", "refresh_token"])
                // 429: passed on with Spotify's wait.
                fake.rateLimitNext(1)
                let limited = try await client.json(.get, "/api/v1/runbeat/spotify/devices", token: ann)
                #expect(limited.status == .serviceUnavailable && limited.headers[.retryAfter] == "2")
                #expect(limited.json["error"] as? String == "spotify_busy")

                // Devices, and the one to play on.
                let devices = try await client.json(.get, "/api/v1/runbeat/spotify/devices", token: ann)
                #expect((devices.json["devices"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Runner's phone", "Laptop"])
                let chosen = try await client.json(.put, "/api/v1/runbeat/spotify/device", token: ann, body: #"{"device_id":"laptop-1"}"#)
                #expect(chosen.status == .ok && chosen.json["device_name"] as? String == "Laptop")
                #expect(
                    try await client.json(.put, "/api/v1/runbeat/spotify/device", token: ann, body: #"{"device_id":"toaster"}"#).status
                        == .unprocessableContent)

                // The job: nothing due now; 50 minutes on, the token is refreshed before it runs out.
                #expect(try await client.json(.get, "/api/v1/runbeat/admin/spotify", token: ann).status == .forbidden)
                var job = try await client.json(.post, "/api/v1/runbeat/admin/spotify/refresh", token: admin)
                #expect(job.status == .ok && (job.json["last_run"] as? [String: Any])?["checked"] as? Int == 0)
                #expect(job.json["connected"] as? Int == 1 && job.json["period_seconds"] as? Int == 900)
                clock.advance(50 * 60)
                job = try await client.json(.post, "/api/v1/runbeat/admin/spotify/refresh", token: admin)
                #expect((job.json["last_run"] as? [String: Any])?["refreshed"] as? Int == 1)
                #expect(fake.tokenRequests.last == "refresh_token")
                status = try await client.json(.get, "/api/v1/runbeat/spotify", token: ann)
                #expect(status.json["expires_at"] as? Int64 == Int64((clock.now.withLock { $0 }.timeIntervalSince1970 + 3600) * 1000))

                // The refresh token revoked: the runner is asked to connect again; the job says so.
                fake.revokeRefreshTokens()
                fake.expireAccessTokens()
                let gone = try await client.json(.get, "/api/v1/runbeat/spotify/playlists", token: ann)
                #expect(gone.status == .conflict && gone.json["error"] as? String == "spotify_reauthorize")
                status = try await client.json(.get, "/api/v1/runbeat/spotify", token: ann)
                #expect(status.json["status"] as? String == "reauthorize")
                job = try await client.json(.get, "/api/v1/runbeat/admin/spotify", token: admin)
                #expect(job.json["reauthorize"] as? Int == 1 && (job.json["recent_failures"] as? [[String: Any]])?.first?["runner"] as? String == "ann")

                // Connecting again works; disconnecting forgets the tokens.
                try await Self.connect(client, fake, token: ann)
                #expect(try await client.json(.get, "/api/v1/runbeat/spotify/playlists", token: ann).status == .ok)
                #expect(try await client.json(.delete, "/api/v1/runbeat/spotify", token: ann).status == .noContent)
                status = try await client.json(.get, "/api/v1/runbeat/spotify", token: ann)
                #expect(status.json["status"] as? String == "disconnected")

                // An authorisation older than ten minutes is refused.
                let late = try await client.json(.post, "/api/v1/runbeat/spotify/connect", token: ann)
                let lateBack = try #require((late.json["authorize_url"] as? String).flatMap(URL.init(string:)).flatMap(fake.approve))
                clock.advance(11 * 60)
                let lateLanded = try await client.json(
                    .get, "/runbeat/spotify/callback?\(URL(string: lateBack)?.query ?? "")", headers: Self.browser(ann))
                #expect(lateLanded.headers[.location]?.contains("spotify=failed") == true)
            }
        }
    }

    /// Login CSRF: a callback link carrying the starter's state and a code from whoever
    /// approved at Spotify must not attach that Spotify to the starter's account. Only the
    /// browser whose session started the authorisation finishes it.
    @Test(arguments: TestBackend.available)
    func theCallbackFinishesOnlyInTheBrowserThatStartedIt(backend: TestBackend) async throws {
        let clock = HandClock()
        let fake = FakeSpotify(playlistCount: 3, devices: [], now: { clock.now.withLock { $0 } })
        try await fake.run { url in
            try await TestApp.run(backend, clock: clock.wall, configure: { $0.groups[RunBeatSettings.self].spotify = Self.settings(url) }) { _, client in
                let ann = try await client.register("ann")
                let eve = try await client.register("eve")
                let start = try await client.json(.post, "/api/v1/runbeat/spotify/connect", token: eve)
                let authorize = try #require((start.json["authorize_url"] as? String).flatMap(URL.init(string:)))
                let back = try #require(fake.approve(authorize).flatMap(URL.init(string:)))
                let callback = "/runbeat/spotify/callback?\(back.query ?? "")"

                // Opened with no cookie (a browser signed out of Juke), or in another account's
                // browser: refused with why, no code exchanged, nothing attached.
                for headers in [HTTPFields(), Self.browser(ann)] {
                    let landed = try await client.json(.get, callback, headers: headers)
                    #expect(landed.status == .seeOther)
                    #expect(
                        landed.headers[.location]?.hasPrefix("/runbeat?spotify=failed&reason=This%20Spotify%20sign-in%20was%20started%20in%20another%20browser")
                            == true)
                }
                // Another browser of the same account (a second sign-in) is another browser too.
                let eveElsewhere =
                    try await client.json(
                        .post, "/api/v1/auth/login", body: #"{"username":"eve","password":"correct horse"}"#
                    ).json["token"] as? String ?? ""
                let elsewhere = try await client.json(.get, callback, headers: Self.browser(eveElsewhere))
                #expect(elsewhere.headers[.location]?.contains("spotify=failed") == true)
                #expect(fake.tokenRequests.isEmpty)
                for token in [eve, ann] {
                    let status = try await client.json(.get, "/api/v1/runbeat/spotify", token: token)
                    #expect(status.json["status"] as? String != "connected")
                }

                // The starter's own browser still finishes it.
                let landed = try await client.json(.get, callback, headers: Self.browser(eve))
                #expect(landed.headers[.location] == "/runbeat?spotify=connected")
                #expect(fake.tokenRequests == ["authorization_code"])
                #expect(try await client.json(.get, "/api/v1/runbeat/spotify", token: eve).json["status"] as? String == "connected")
            }
        }
    }

    @Test func sealedTokensOpenOnlyWithTheirKeyAndForTheirRunner() async throws {
        try await TestApp.run(.sqlite) { app, _ in
            let secrets = SecretStore(database: app.services.platform.database)
            let ann = UserID()
            let bob = UserID()
            let operatorKey = TokenSealer(secrets: secrets, key: Data(repeating: 7, count: 32))
            let sealed = try await operatorKey.seal("access-123", for: ann)
            #expect(sealed.hasPrefix("v1:") && !sealed.contains("access-123"))
            #expect(try await operatorKey.open(sealed, for: ann) == "access-123")
            // Sealed twice, never the same text (a fresh nonce each time).
            #expect(try await operatorKey.seal("access-123", for: ann) != sealed)
            await #expect(throws: TokenSealer.SealError.self) { try await operatorKey.open(sealed, for: bob) }
            let otherKey = TokenSealer(secrets: secrets, key: Data(repeating: 8, count: 32))
            await #expect(throws: TokenSealer.SealError.self) { try await otherKey.open(sealed, for: ann) }
            await #expect(throws: TokenSealer.SealError.self) { try await operatorKey.open("v1:bm9ub25zZW5zZQ==", for: ann) }
            // Without an operator's key: the database's, the same for every server on it.
            let first = TokenSealer(secrets: secrets, key: nil)
            let second = TokenSealer(secrets: secrets, key: nil)
            #expect(try await second.open(try await first.seal("refresh-9", for: ann), for: ann) == "refresh-9")
        }
    }

    @Test func aServerWithoutSpotifySaysSo() async throws {
        try await TestApp.run(.sqlite) { _, client in
            let ann = try await client.register("ann")
            let status = try await client.json(.get, "/api/v1/runbeat/spotify", token: ann)
            #expect(status.json["configured"] as? Bool == false)
            #expect(try await client.json(.post, "/api/v1/runbeat/spotify/connect", token: ann).status == .notFound)
            let back = try await client.json(.get, "/runbeat/spotify/callback?code=x&state=y")
            #expect(back.headers[.location]?.contains("spotify=failed") == true)
            // A phase set to Spotify needs a playlist.
            let music = #"{"mode":"auto","track_ids":[]}"#
            let noPlaylist = try await client.json(
                .put, "/api/v1/runbeat/profile/music", token: ann,
                body: #"{"warmup":\#(music),"work":{"mode":"spotify","track_ids":[]},"recovery":\#(music),"cooldown":\#(music)}"#)
            #expect(noPlaylist.status == .unprocessableContent)
        }
    }

    static func play(_ i: Int) -> FakeSpotify.Play {
        FakeSpotify.Play(contextURI: "spotify:playlist:\(FakeSpotify.playlistID(i))", device: "phone-1")
    }

    /// Waits (up to ten seconds) until `condition` holds.
    static func eventually(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(50)) }
        #expect(condition(), "never: \(what)")
    }

    @Test(arguments: TestBackend.available)
    func thePhasesPlayTheirPlaylistsOnce(backend: TestBackend) async throws {
        let clock = HandClock()
        let fake = FakeSpotify(playlistCount: 10, now: { clock.now.withLock { $0 } })
        try await fake.run { url in
            try await TestApp.run(backend, clock: clock.wall, mode: .live, configure: { $0.groups[RunBeatSettings.self].spotify = Self.settings(url) }) {
                _, client in
                let ann = try await client.register("ann")
                try await Self.connect(client, fake, token: ann)
                #expect(
                    try await client.json(
                        .put, "/api/v1/runbeat/profile", token: ann, body: #"{"age":30,"resting":60,"formula":"fox","warmup_seconds":60,"cooldown_seconds":0}"#
                    ).status == .ok)
                let music = try await client.json(
                    .put, "/api/v1/runbeat/profile/music", token: ann,
                    body: """
                        {"warmup":{"mode":"none","track_ids":[]},
                         "work":{"mode":"spotify","track_ids":[],"spotify_playlist_id":"\(FakeSpotify.playlistID(1))","spotify_playlist_name":"Fast"},
                         "recovery":{"mode":"spotify","track_ids":[],"spotify_playlist_id":"\(FakeSpotify.playlistID(2))","spotify_playlist_name":"Easy"},
                         "cooldown":{"mode":"auto","track_ids":[]}}
                        """)
                #expect(music.status == .ok)
                #expect(((music.json["music"] as? [String: Any])?["work"] as? [String: Any])?["spotify_playlist_name"] as? String == "Fast")
                let work = try await client.json(.get, "/api/v1/runbeat/music/work", token: ann)
                #expect(work.json["mode"] as? String == "spotify" && work.json["spotify_playlist_id"] as? String == FakeSpotify.playlistID(1))

                let started = try await client.json(.post, "/api/v1/runbeat/workouts", token: ann, body: #"{"plan_id":"vo2max_4x4"}"#)
                let id = try #require(started.json["id"] as? String)
                let port = try #require(client.port)
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(ann)"
                let seen = Mutex<[String]>([])
                func live(_ body: @escaping @Sendable (WebSocketOutboundWriter) async throws -> Void) async throws {
                    try await WebSocketClient.connect(
                        url: "ws://127.0.0.1:\(port)/api/v1/runbeat/workouts/\(id)/live",
                        configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers), logger: Logger(label: "test")
                    ) { inbound, outbound, _ in
                        // The test's steps write; the connection's messages are read here until the steps close it.
                        let steps = Task {
                            do {
                                try await body(outbound)
                            } catch {
                                try? await outbound.close(.normalClosure, reason: nil)
                                throw error
                            }
                            try await outbound.close(.normalClosure, reason: nil)
                        }
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            if case .text(let text) = message { seen.withLock { $0.append(text) } }
                        }
                        try await steps.value
                    }
                }
                try await live { outbound in
                    // No device active: playback moved to the runner's phone; the warm-up plays no Spotify.
                    try await Self.eventually("a transfer") { fake.transfers == ["phone-1"] }
                    try await outbound.write(.text(#"{"type":"samples","t":0,"samples":[{"seq":0,"t":0,"bpm":100}]}"#))
                    try await outbound.write(.text(#"{"type":"samples","t":61,"samples":[{"seq":1,"t":61,"bpm":150}]}"#))
                    try await Self.eventually("the work playlist") { fake.plays == [Self.play(1)] }
                    try await Self.eventually("the page told") { seen.withLock { $0.contains { $0.contains(#""playlist":"Fast""#) } } }
                }
                // The page comes back: told what plays, nothing started again.
                seen.withLock { $0.removeAll() }
                try await live { outbound in
                    try await Self.eventually("the page told again") { seen.withLock { $0.contains { $0.contains(#""playlist":"Fast""#) } } }
                    #expect(fake.plays == [Self.play(1)])
                    // The phone's Spotify closed: the next device check resumes the playlist on it.
                    fake.dropActiveDevice()
                    clock.advance(31)
                    try await Self.eventually("resumed") { fake.plays == [Self.play(1), Self.play(1)] }
                    // Recovery, at first refused with 429: played once the wait is over.
                    fake.rateLimitNext(1)
                    try await outbound.write(.text(#"{"type":"samples","t":301,"samples":[{"seq":2,"t":301,"bpm":130}]}"#))
                    try await Self.eventually("told to wait") { seen.withLock { $0.contains { $0.contains("wait 2 s") } } }
                    #expect(fake.plays.count == 2)
                    clock.advance(3)
                    try await Self.eventually("the recovery playlist") { fake.plays == [Self.play(1), Self.play(1), Self.play(2)] }
                    // The phone is gone, Spotify open on another: the next phase's play meets
                    // NO_ACTIVE_DEVICE, playback moves to the new device and the playlist starts there.
                    fake.replaceDevices([("phone-2", "New phone")])
                    try await outbound.write(.text(#"{"type":"samples","t":481,"samples":[{"seq":3,"t":481,"bpm":150}]}"#))
                    try await Self.eventually("moved to the new phone") {
                        fake.plays.last == FakeSpotify.Play(contextURI: "spotify:playlist:\(FakeSpotify.playlistID(1))", device: "phone-2")
                    }
                    #expect(fake.transfers == ["phone-1", "phone-1", "phone-2"])
                    // Plays asked: the work list, its resumption, recovery refused (429) then played, the refused one on the old phone, the new phone.
                    #expect(fake.apiRequests.filter { $0.hasSuffix("/me/player/play") }.count == 6)
                    try await outbound.write(.text(#"{"type":"end","t":490}"#))
                    try await Self.eventually("paused at the end") { fake.pauses == 1 }
                }
                #expect(fake.plays.count == 4)
            }
        }
    }

    /// One live connection of `token`'s page to workout `id`: `body` writes, everything the
    /// server says goes to `heard`, and the connection closes when `body` is done.
    static func live(
        port: Int, id: String, token: String, heard: @escaping @Sendable (String) -> Void,
        _ body: @escaping @Sendable (WebSocketOutboundWriter) async throws -> Void
    ) async throws {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port)/api/v1/runbeat/workouts/\(id)/live",
            configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers), logger: Logger(label: "test")
        ) { inbound, outbound, _ in
            let steps = Task {
                do {
                    try await body(outbound)
                } catch {
                    try? await outbound.close(.normalClosure, reason: nil)
                    throw error
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
            for try await message in inbound.messages(maxSize: 1 << 20) {
                if case .text(let text) = message { heard(text) }
            }
            try await steps.value
        }
    }

    /// The runner's Pause pauses Spotify where it plays; the device check due meanwhile, the
    /// page going and coming back (saying again that it is paused) call Spotify for nothing;
    /// Resume carries on with Start/Resume Playback without a context (not from the top).
    @Test func pausePausesSpotifyAndResumeCarriesOnWithoutARestart() async throws {
        let clock = HandClock()
        let fake = FakeSpotify(playlistCount: 10, now: { clock.now.withLock { $0 } })
        try await fake.run { url in
            try await TestApp.run(.sqlite, clock: clock.wall, mode: .live, configure: { $0.groups[RunBeatSettings.self].spotify = Self.settings(url) }) {
                app, client in
                let playback = try #require(app.services.runBeatApp.spotify?.playback)
                let ann = try await client.register("ann")
                try await Self.connect(client, fake, token: ann)
                #expect(
                    try await client.json(
                        .put, "/api/v1/runbeat/profile", token: ann, body: #"{"age":30,"resting":60,"formula":"fox","warmup_seconds":60,"cooldown_seconds":0}"#
                    ).status == .ok)
                let music = try await client.json(
                    .put, "/api/v1/runbeat/profile/music", token: ann,
                    body: """
                        {"warmup":{"mode":"none","track_ids":[]},
                         "work":{"mode":"spotify","track_ids":[],"spotify_playlist_id":"\(FakeSpotify.playlistID(1))","spotify_playlist_name":"Fast"},
                         "recovery":{"mode":"spotify","track_ids":[],"spotify_playlist_id":"\(FakeSpotify.playlistID(2))","spotify_playlist_name":"Easy"},
                         "cooldown":{"mode":"auto","track_ids":[]}}
                        """)
                #expect(music.status == .ok)
                let started = try await client.json(.post, "/api/v1/runbeat/workouts", token: ann, body: #"{"plan_id":"vo2max_4x4"}"#)
                let id = try #require(started.json["id"] as? String)
                let port = try #require(client.port)
                let seen = Mutex<[String]>([])
                let resumed = FakeSpotify.Play(contextURI: "", device: "phone-1")
                let before = Mutex(0)
                try await Self.live(port: port, id: id, token: ann, heard: { text in seen.withLock { $0.append(text) } }) { outbound in
                    try await outbound.write(.text(#"{"type":"samples","t":0,"samples":[{"seq":0,"t":0,"bpm":100}]}"#))
                    try await outbound.write(.text(#"{"type":"samples","t":61,"samples":[{"seq":1,"t":61,"bpm":150}]}"#))
                    try await Self.eventually("the work playlist") { fake.plays == [Self.play(1)] }
                    try await outbound.write(.text(#"{"type":"pause","t":62}"#))
                    try await Self.eventually("Spotify paused") { fake.pauses == 1 }
                    try await Self.eventually("the page told") { seen.withLock { $0.contains { $0.contains(#""paused":true"#) } } }
                    before.withLock { $0 = fake.apiRequests.count }
                    // The device's check is due and the paused phone has gone idle: while paused, neither is acted on.
                    fake.dropActiveDevice()
                    clock.advance(31)
                    await playback.tickAll()
                }
                // The page comes back while paused and says so, as it does after a reload.
                seen.withLock { $0.removeAll() }
                try await Self.live(port: port, id: id, token: ann, heard: { text in seen.withLock { $0.append(text) } }) { outbound in
                    try await outbound.write(.text(#"{"type":"pause","t":62}"#))
                    try await Self.eventually("told it is paused") { seen.withLock { $0.contains { $0.contains(#""paused":true"#) } } }
                    clock.advance(31)
                    await playback.tickAll()
                    // While paused Spotify heard nothing: not the device check that came due, not the
                    // page coming back.
                    #expect(fake.apiRequests.count == before.withLock { $0 })
                    try await outbound.write(.text(#"{"type":"resume","t":62}"#))
                    try await Self.eventually("resumed where it stopped") { fake.plays == [Self.play(1), resumed] }
                    // The phone went idle while paused, so the resume finds it and moves playback
                    // back to it first, then resumes there without a context (not from the top).
                    #expect(
                        Array(fake.apiRequests.dropFirst(before.withLock { $0 }))
                            == ["GET /v1/me/player/devices", "PUT /v1/me/player", "PUT /v1/me/player/play"])
                    #expect(fake.transfers == ["phone-1", "phone-1"] && fake.pauses == 1)
                    // The phases go on as before: recovery's playlist, and the end pauses it.
                    try await outbound.write(.text(#"{"type":"samples","t":301,"samples":[{"seq":2,"t":301,"bpm":130}]}"#))
                    try await Self.eventually("the recovery playlist") { fake.plays == [Self.play(1), resumed, Self.play(2)] }
                    try await outbound.write(.text(#"{"type":"end","t":302}"#))
                    try await Self.eventually("paused at the end") { fake.pauses == 2 }
                }
            }
        }
    }

    @Test func aWorkoutOnTheLibrarysMusicLeavesSpotifyAlone() async throws {
        let fake = FakeSpotify(playlistCount: 3)
        try await fake.run { url in
            try await TestApp.run(.sqlite, mode: .live, configure: { $0.groups[RunBeatSettings.self].spotify = Self.settings(url) }) { app, client in
                let ann = try await client.register("ann")
                try await Self.connect(client, fake, token: ann)
                let started = try await client.json(.post, "/api/v1/runbeat/workouts", token: ann, body: #"{"plan_id":"free"}"#)
                let id = try #require(started.json["id"] as? String)
                let port = try #require(client.port)
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(ann)"
                try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)/api/v1/runbeat/workouts/\(id)/live",
                    configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers), logger: Logger(label: "test")
                ) { inbound, outbound, _ in
                    try await outbound.write(.text(#"{"type":"samples","t":0,"samples":[{"seq":0,"t":0,"bpm":120}]}"#))
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message else { continue }
                        #expect(!text.contains(#""type":"spotify""#))
                        if text.contains(#""seq":0,"type":"ack""#) { break }
                    }
                    // A beat of the playback (its job ticks every two seconds), and all it started
                    // done: still no call to Spotify.
                    let playback = try #require(app.services.runBeatApp.spotify?.playback)
                    await playback.tickAll()
                    await app.services.platform.background.idle()
                    try await outbound.close(.normalClosure, reason: nil)
                }
                #expect(fake.apiRequests.isEmpty)
            }
        }
    }
}
