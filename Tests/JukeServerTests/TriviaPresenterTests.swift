import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import NIOCore
import Testing

@testable import JukeServer
@testable import TuneTriviaServer

/// The big screen (presenter view) over HTTP: a one-time code from the host pairs a screen
/// that nobody signed in on; its token reads only what the room may see, plays the round's
/// clip once it has started, shows the real cover only after the reveal, and stops working
/// when the host disconnects it, the game is deleted, or its hours are up.
@Suite(.timeLimit(.minutes(5))) struct TriviaPresenterTests {
    /// A game in the lobby with five songs and one player: (host, player, base).
    static func lobby(_ app: TestApp, _ client: any TestClientProtocol) async throws -> (host: String, player: String, base: String, invite: String) {
        let host = try await client.register("host")
        let ann = try await client.register("ann")
        _ = try await app.addSongs(TuneTriviaAPITests.songs)
        let created = try await client.json(.post, "/api/v1/tunetrivia/sessions", token: host, body: #"{"title":"Big screen","num_songs":5}"#)
        let id = try #require(created.json["id"] as? String)
        let invite = try #require(created.json["invite_code"] as? String)
        let base = "/api/v1/tunetrivia/sessions/\(id)"
        #expect(try await client.json(.post, "\(base)/rounds/auto-generate", token: host).status == .ok)
        #expect(try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: ann, body: #"{"invite_code":"\#(invite)"}"#).status == .ok)
        return (host, ann, base, invite)
    }

    /// Pairs a screen by `code` and returns its token.
    static func pair(_ client: any TestClientProtocol, _ code: String, token: String? = nil) async throws -> String {
        let paired = try await client.json(.post, "/api/v1/tunetrivia/presenter/pair", token: token, body: #"{"code":"\#(code)"}"#)
        #expect(paired.status == .ok, "\(paired.json)")
        return try #require(paired.json["token"] as? String)
    }

    static func state(_ client: any TestClientProtocol, _ token: String) async throws -> (status: HTTPResponse.Status, json: [String: Any]) {
        let r = try await client.json(.get, "/api/v1/tunetrivia/presenter/state?token=\(token)")
        return (r.status, r.json)
    }

    @Test(arguments: TestBackend.available)
    func aScreenPairsOnceAndSeesWhatTheRoomSees(backend: TestBackend) async throws {
        let clock = HandClock()
        try await TestApp.run(backend, clock: clock.wall) { app, client in
            let (host, ann, base, _) = try await Self.lobby(app, client)
            #expect(try await client.json(.post, "\(base)/presenter", token: ann).status == .forbidden)
            #expect(try await client.json(.get, "\(base)/presenter", token: ann).status == .forbidden)
            let issued = try await client.json(.post, "\(base)/presenter", token: host)
            #expect(issued.status == .created)
            let code = try #require(issued.json["pairing_code"] as? String)
            #expect(code.count == 9 && code.contains("-"), "\(code)")
            #expect(issued.json["present_url"] as? String == "/tunetrivia/present/\(code.replacingOccurrences(of: "-", with: ""))")
            #expect(try await client.json(.get, "\(base)/presenter", token: host).json["connected"] as? Bool == false)

            // Typed as people type it; and only once.
            let screen = try await Self.pair(client, code.lowercased().replacingOccurrences(of: "-", with: " "))
            let again = try await client.json(.post, "/api/v1/tunetrivia/presenter/pair", body: #"{"code":"\#(code)"}"#)
            #expect(again.status == .notFound)

            let lobby = try await Self.state(client, screen)
            #expect(lobby.status == .ok)
            let session = try #require(lobby.json["session"] as? [String: Any])
            #expect(session["status"] as? String == "lobby" && session["is_host"] as? Bool == false && session["you"] == nil)
            #expect(lobby.json["clip_url"] == nil)
            #expect(try await client.json(.get, "\(base)/presenter", token: host).json["connected"] as? Bool == true)

            // The song plays: the screen gets the clip and the blurred cover, never the answer.
            #expect(try await client.json(.post, "\(base)/start", token: host).status == .ok)
            let playing = try await Self.state(client, screen).json
            let round = try #require((playing["session"] as? [String: Any])?["round"] as? [String: Any])
            #expect(round["phase"] as? String == "playing" && round["clip_ends_at_ms"] is Double)
            for hidden in ["title", "artist", "album", "year", "track_id", "artwork_url", "trivia_answer"] { #expect(round[hidden] == nil, "\(hidden)") }
            let clip = try #require(playing["clip_url"] as? String)
            #expect(playing["cover_url"] is String && playing["artwork_url"] == nil)
            #expect(!clip.contains("catalog"))
            let audio = try await client.json(.get, clip, headers: [.range: "bytes=0-99"])
            #expect(audio.status == .partialContent && audio.raw.readableBytes == 100)
            let artwork = clip.replacingOccurrences(of: "/clip?", with: "/artwork?")
            #expect(try await client.json(.get, artwork).status == .forbidden, "the real cover waits for the reveal")
            // Songs to come are not served.
            let rounds = try await TuneTriviaRoundsTests.rounds(client, base, host)
            let later = try #require(rounds.first { $0["round_number"] as? Int == 2 }?["id"] as? String)
            let current = try #require(round["id"] as? String)
            #expect(try await client.json(.get, clip.replacingOccurrences(of: current, with: later)).status == .notFound)

            // The reveal: the answer, and the real cover.
            #expect(try await client.json(.post, "\(base)/reveal", token: host).status == .ok)
            let revealed = try await Self.state(client, screen).json
            let shown = try #require((revealed["session"] as? [String: Any])?["round"] as? [String: Any])
            #expect(shown["title"] is String)
            #expect(revealed["artwork_url"] as? String == artwork)
            #expect(try await client.json(.get, artwork).status == .ok)

            // A screen that stops asking is no longer on; the host's disconnect ends its token.
            clock.advance(10)
            #expect(try await client.json(.get, "\(base)/presenter", token: host).json["connected"] as? Bool == false)
            #expect(try await Self.state(client, screen).status == .ok)
            #expect(try await client.json(.delete, "\(base)/presenter", token: ann).status == .forbidden)
            #expect(try await client.json(.delete, "\(base)/presenter", token: host).status == .noContent)
            #expect(try await Self.state(client, screen).status == .unauthorized)
            #expect(try await client.json(.get, clip).status == .unauthorized)
        }
    }

    @Test func codesExpireTokensLastHoursAndWrongCodesAreLimited() async throws {
        let clock = HandClock()
        try await TestApp.run(.sqlite, clock: clock.wall) { app, client in
            let (host, _, base, _) = try await Self.lobby(app, client)
            let stale = try #require(try await client.json(.post, "\(base)/presenter", token: host).json["pairing_code"] as? String)
            clock.advance(PresenterService.pairingLifetime + 1)
            #expect(try await client.json(.post, "/api/v1/tunetrivia/presenter/pair", body: #"{"code":"\#(stale)"}"#).status == .notFound)
            let fresh = try #require(try await client.json(.post, "\(base)/presenter", token: host).json["pairing_code"] as? String)
            let screen = try await Self.pair(client, fresh)
            clock.advance(PresenterService.tokenLifetime - 60)
            #expect(try await Self.state(client, screen).status == .ok)
            clock.advance(120)
            #expect(try await Self.state(client, screen).status == .unauthorized)

            // Bad input is refused as such; guessing is held to a few tries.
            #expect(try await client.json(.get, "/api/v1/tunetrivia/presenter/state?token=not%20a%20token").status == .badRequest)
            #expect(try await client.json(.get, "/api/v1/tunetrivia/presenter/state").status == .badRequest)
            #expect(try await client.json(.post, "/api/v1/tunetrivia/presenter/pair", body: #"{"code":""}"#).status == .badRequest)
            // Ten wrong codes in five minutes are heard; the eleventh waits.
            var statuses: [HTTPResponse.Status] = []
            for guess in 0..<11 {
                statuses.append(try await client.json(.post, "/api/v1/tunetrivia/presenter/pair", body: #"{"code":"ZZZZ\#(1000 + guess)"}"#).status)
            }
            #expect(statuses.dropLast().allSatisfy { $0 == .notFound } && statuses.last == .tooManyRequests, "\(statuses)")
        }
    }

    @Test(arguments: TestBackend.available)
    func theHostSignedInOnTheScreenPairsByTheInviteCode(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let (host, ann, base, invite) = try await Self.lobby(app, client)
            let byHost = try await Self.pair(client, invite.lowercased(), token: host)
            #expect(try await Self.state(client, byHost).status == .ok)
            #expect(try await client.json(.post, "/api/v1/tunetrivia/presenter/pair", token: ann, body: #"{"code":"\#(invite)"}"#).status == .forbidden)
            #expect(try await client.json(.post, "/api/v1/tunetrivia/presenter/pair", body: #"{"code":"\#(invite)"}"#).status == .unauthorized)
            // Deleting the game ends its screens.
            #expect(try await client.json(.delete, base, token: host).status == .noContent)
            #expect(try await Self.state(client, byHost).status == .unauthorized)
        }
    }
}
