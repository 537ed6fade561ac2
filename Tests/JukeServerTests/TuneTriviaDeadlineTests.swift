import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import NIOCore
import Synchronization
import Testing

@testable import JukeServer

/// Over HTTP, by the server's clock: a guess after the round's time (the clip and a moment of
/// grace) is refused with 409 and the contract's code `too_late`, and is not scored; a player
/// the host removed cannot join again by the invite code (403) until the host lets them back.
@Suite(.timeLimit(.minutes(5))) struct TuneTriviaDeadlineTests {
    /// A clock the test moves by hand.
    final class Hands: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var wall: WallClock { WallClock { self.now.withLock { $0 } } }
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
    }

    @Test(arguments: TestBackend.available)
    func aGuessAfterTheRoundsTimeIsRefusedAndNotScored(backend: TestBackend) async throws {
        let hands = Hands()
        try await TestApp.run(backend, clock: hands.wall) { app, client in
            let (host, players, base) = try await TuneTriviaAPITests.startedGame(app, client, players: ["ann", "bob"])
            let seconds = try #require((try await client.json(.get, base, token: host).json["settings"] as? [String: Any])?["seconds_per_song"] as? Int)
            let round = try #require(try await client.json(.get, "\(base)/state", token: host).json["round"] as? [String: Any])
            let title = try #require(round["title"] as? String), artist = try #require(round["artist"] as? String)
            let answer = #"{"artist_guess":"\#(artist)","song_guess":"\#(title)"}"#

            hands.advance(Double(seconds) - 1)
            #expect(try await client.json(.post, "\(base)/guess", token: players[0], body: answer).status == .accepted)
            // 25 seconds after the clip ended.
            hands.advance(26)
            let late = try await client.json(.post, "\(base)/guess", token: players[1], body: answer)
            #expect(late.status == .conflict, "\(late.json)")
            #expect(late.json["error"] as? String == "too_late")
            #expect((late.json["message"] as? String)?.hasPrefix("Time is up") == true, "\(late.json)")

            #expect(try await client.json(.post, "\(base)/reveal", token: host).status == .ok)
            let scores = try await client.json(.get, "\(base)/state", token: host).json["players"] as? [[String: Any]] ?? []
            let points = Dictionary(
                uniqueKeysWithValues: scores.compactMap { p in (p["display_name"] as? String).map { ($0, p["total_score"] as? Int ?? -1) } })
            #expect(points["ann"] == 2 && points["bob"] == 0, "\(points)")
        }
    }

    @Test(arguments: TestBackend.available)
    func aRemovedPlayerStaysOutUntilTheHostLetsThemBack(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let (host, players, base) = try await TuneTriviaAPITests.startedGame(app, client, players: ["ann", "bob"])
            let ann = players[0]
            let code = try #require(try await client.json(.get, base, token: host).json["invite_code"] as? String)
            let seat = try #require(try await client.json(.get, "\(base)/state", token: ann).json["you"] as? String)
            #expect(try await client.json(.delete, "\(base)/players/\(seat)", token: host).status == .noContent)

            let join = #"{"invite_code":"\#(code)"}"#
            let refused = try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: ann, body: join)
            #expect(refused.status == .forbidden, "\(refused.json)")
            #expect((refused.json["message"] as? String)?.contains("removed you") == true, "\(refused.json)")

            // The host sees whom they removed; nobody else does.
            let listed = try await client.json(.get, "\(base)/removed", token: host)
            #expect(listed.status == .ok)
            let removed = try JSONSerialization.jsonObject(with: Data(buffer: listed.raw)) as? [[String: Any]] ?? []
            #expect(removed.map { $0["player_id"] as? String } == [seat] && removed.first?["display_name"] as? String == "ann", "\(removed)")
            #expect(try await client.json(.get, "\(base)/removed", token: players[1]).status == .forbidden)
            #expect(try await client.json(.delete, "\(base)/removed/\(seat)", token: players[1]).status == .forbidden)

            // Let back, they join again; and a player who leaves by themselves is no one removed.
            #expect(try await client.json(.delete, "\(base)/removed/\(seat)", token: host).status == .noContent)
            #expect(try await client.json(.delete, "\(base)/removed/\(seat)", token: host).status == .notFound)
            #expect(try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: ann, body: join).status == .ok)
            let bob = try #require(try await client.json(.get, "\(base)/state", token: players[1]).json["you"] as? String)
            #expect(try await client.json(.delete, "\(base)/players/\(bob)", token: players[1]).status == .noContent)
            #expect(try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: players[1], body: join).status == .ok)
        }
    }
}
