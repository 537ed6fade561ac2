import Back2Back
import Foundation
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import NIOCore
import Synchronization
import Testing

@testable import Back2BackServer
@testable import JukeServer

/// A clock the test moves by hand.
final class HandClock: Sendable {
    let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var wall: WallClock { WallClock { self.now.withLock { $0 } } }
    func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
}

/// An idle member must not stall a shared session, over HTTP: the turn's end is in the
/// session, it passes when the time is up, the host passes anyone's turn, and a member who
/// closed the session is skipped.
@Suite(.timeLimit(.minutes(5))) struct Back2BackTurnTests {
    @Test(arguments: TestBackend.available)
    func aStalledTurnPassesOn(backend: TestBackend) async throws {
        // The server reads the time and its turn timers sleep on the same hand-moved clock.
        let timers = ManualLiveClock()
        let wall = timers.wall()
        try await TestApp.run(backend, clock: wall, timers: timers) { app, client in
            let host = try await client.register("host")
            let guest = try await client.register("guest")
            let third = try await client.register("third")
            _ = try await app.addSongs(Back2BackAPITests.songs)
            // Less than 15 s is no time to search: such a turn lasts 15 s.
            let short = try await client.json(.post, "/api/v1/back2back/sessions", token: host, body: #"{"turn_seconds":5}"#)
            #expect(short.status == .created && short.json["turn_seconds"] as? Int == 15)
            let created = try await client.json(.post, "/api/v1/back2back/sessions", token: host, body: #"{"turn_seconds":30}"#)
            #expect(created.status == .created, "\(created.json)")
            let id = try #require(created.json["id"] as? String)
            let base = "/api/v1/back2back/sessions/\(id)"
            let token = try #require(created.json["invite_token"] as? String)
            for who in [guest, third] {
                #expect(try await client.json(.post, "/api/v1/back2back/sessions/join", token: who, body: #"{"invite_token":"\#(token)"}"#).status == .ok)
            }
            // The host's turn, timed: 30 s from when it began.
            var state = try await client.json(.get, base, token: guest).json
            #expect(state["turn_seconds"] as? Int == 30)
            let ends = try #require(state["turn_ends_at_ms"] as? Double)
            #expect(ends == (wall.now().timeIntervalSince1970 + 30) * 1000)
            // Early, the timer's event changes nothing; when the time is up, the turn's own
            // timer passes it to the guest, nobody sending anything.
            let session = try #require(DJSessionID(id))
            let started = try #require(try await app.services.back2back.store.load(session)?.session.turnStartedAt)
            let hostID = try #require((state["turn"] as? [String: Any])?["user_id"] as? String)
            let hostUser = try #require(UserID(hostID))
            try await app.services.back2back.run(session, .turnExpired(hostUser, startedAt: started))
            #expect((try await client.json(.get, base, token: guest).json["turn"] as? [String: Any])?["is_you"] as? Bool == false)
            timers.advance(by: .seconds(31))
            let expired = try await eventually {
                (try await client.json(.get, base, token: guest).json["turn"] as? [String: Any])?["is_you"] as? Bool == true
            }
            #expect(expired, "the turn's timer never passed the host's turn on")

            // Only the host passes someone else's turn; the host passes the guest's.
            #expect(try await client.json(.post, "\(base)/pass-turn", token: third).status == .forbidden)
            let passed = try await client.json(.post, "\(base)/pass-turn", token: host)
            #expect(passed.status == .ok)
            #expect((try await client.json(.get, base, token: third).json["turn"] as? [String: Any])?["is_you"] as? Bool == true)
            // The third member leaves on their turn: it passes on, and they are gone.
            let left = try await client.json(.post, "\(base)/leave", token: third)
            #expect(left.status == .ok)
            state = try await client.json(.get, base, token: host).json
            #expect((state["members"] as? [Any])?.count == 2)
            #expect((state["turn"] as? [String: Any])?["kind"] as? String == "person")
            #expect(try await client.json(.get, base, token: third).status == .forbidden)
        }
    }

    /// Presence from the live connections: a member whose last page closed is away after a
    /// grace period and is skipped; opening the session again brings them back.
    @Test func aMemberWithNoPageOpenIsSkipped() async throws {
        let timers = ManualLiveClock()
        try await TestApp.run(.sqlite, clock: timers.wall(), timers: timers) { app, client in
            let host = try await client.register("host")
            let guest = try await client.register("guest")
            let created = try await client.json(.post, "/api/v1/back2back/sessions", token: host, body: "{}")
            let rawID = try #require(created.json["id"] as? String)
            let id = try #require(DJSessionID(rawID))
            let token = try #require(created.json["invite_token"] as? String)
            let joined = try await client.json(.post, "/api/v1/back2back/sessions/join", token: guest, body: #"{"invite_token":"\#(token)"}"#)
            let members = try #require(joined.json["members"] as? [[String: Any]])
            let guestID = try #require(UserID(members.compactMap { $0["id"] as? String }.last ?? ""))
            let service = app.services.back2back
            await service.connected(id, user: guestID)
            await service.connected(id, user: guestID)  // a second tab
            await service.disconnected(id, user: guestID)
            #expect(try await service.store.load(id)?.session.isPresent(guestID) == true, "one tab is still open")
            await service.disconnected(id, user: guestID)
            // The last tab closed: a timer waits out the grace (a reload would come back within it).
            #expect(await timers.waitForSleeper(until: timers.now + Back2BackService.awayGrace), "no grace timer set")
            #expect(try await service.store.load(id)?.session.isPresent(guestID) == true, "away before the grace is over")
            timers.advance(by: Back2BackService.awayGrace)
            let away = try await eventually { try await service.store.load(id)?.session.isPresent(guestID) == false }
            #expect(away, "away after the grace period")
            let view = try await client.json(.get, "/api/v1/back2back/sessions/\(id)", token: host).json
            #expect((view["members"] as? [[String: Any]])?.first { $0["id"] as? String == guestID.description }?["online"] as? Bool == false)
            await service.connected(id, user: guestID)
            #expect(try await service.store.load(id)?.session.isPresent(guestID) == true)
        }
    }

    /// A session stalled because every song played in the persona's last 24 hours wakes when
    /// the memory is cleared: its DJ is asked again, and music plays.
    @Test func clearingTheMemoryWakesAStalledSession() async throws {
        try await TestApp.run(.sqlite) { app, client in
            let host = try await client.register("host")
            _ = try await app.addSongs(Array(Back2BackAPITests.songs.prefix(2)))
            let service = app.services.back2back
            // A first session plays both songs, so the persona remembers them.
            let first = try await client.json(.post, "/api/v1/back2back/sessions", token: host, body: "{}")
            let firstBase = "/api/v1/back2back/sessions/\(try #require(first.json["id"] as? String))"
            #expect(try await client.json(.post, "\(firstBase)/ai-start", token: host).status == .ok)
            await service.settle()
            var state = try await client.json(.get, firstBase, token: host).json
            let playing = try #require((state["now_playing"] as? [String: Any])?["id"] as? String)
            #expect(try await client.json(.post, "\(firstBase)/finished", token: host, body: #"{"entry_id":"\#(playing)"}"#).status == .ok)
            await service.settle()
            // A second session: nothing left to pick.
            let second = try await client.json(.post, "/api/v1/back2back/sessions", token: host, body: "{}")
            let base = "/api/v1/back2back/sessions/\(try #require(second.json["id"] as? String))"
            #expect(try await client.json(.post, "\(base)/ai-start", token: host).status == .ok)
            await service.settle()
            state = try await client.json(.get, base, token: host).json
            #expect((state["problem"] as? String)?.contains("clear the song memory") == true, "\(state)")
            #expect(state["now_playing"] == nil)
            // Clearing the memory wakes it.
            #expect(try await client.json(.delete, "/api/v1/back2back/memory", token: host).status == .noContent)
            await service.settle()
            state = try await client.json(.get, base, token: host).json
            #expect(state["now_playing"] is [String: Any], "\(state)")
            #expect(state["problem"] == nil)
        }
    }

    /// One page plays: only its reports count, a guest's remote cannot move the song, the host
    /// can (the player follows), and another page takes over with Play here.
    @Test(arguments: TestBackend.available)
    func onlyThePlayingPageReportsAndMovesTheSong(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let host = try await client.register("host")
            let guest = try await client.register("guest")
            _ = try await app.addSongs(Back2BackAPITests.songs)
            let created = try await client.json(.post, "/api/v1/back2back/sessions", token: host, body: "{}")
            let base = "/api/v1/back2back/sessions/\(try #require(created.json["id"] as? String))"
            let token = try #require(created.json["invite_token"] as? String)
            #expect(try await client.json(.post, "/api/v1/back2back/sessions/join", token: guest, body: #"{"invite_token":"\#(token)"}"#).status == .ok)
            #expect(try await client.json(.post, "\(base)/player", token: host, body: #"{"device_id":"host-tab"}"#).status == .ok)
            #expect(try await client.json(.post, "\(base)/player", token: host, body: #"{"device_id":"no spaces"}"#).status == .badRequest)
            let search = try await client.json(.get, "/api/v1/catalog/search?q=entertainer", token: host)
            let track = try #require((search.json["items"] as? [[String: Any]])?.first?["id"] as? String)
            let picked = try await client.json(.post, "\(base)/picks", token: host, body: #"{"track_id":"\#(track)"}"#)
            let playing = try #require((picked.json["now_playing"] as? [String: Any])?["id"] as? String)
            #expect((picked.json["player"] as? [String: Any])?["device_id"] as? String == "host-tab")
            #expect((picked.json["playhead"] as? [String: Any])?["position"] as? Double == 0)
            await app.services.back2back.settle()

            // A guest's page reporting the end, or the host's other tab: ignored.
            for (who, device) in [(guest, "guest-tab"), (host, "other-tab")] {
                _ = try await client.json(.post, "\(base)/finished", token: who, body: #"{"entry_id":"\#(playing)","device_id":"\#(device)"}"#)
                let now = try await client.json(.get, base, token: host).json["now_playing"] as? [String: Any]
                #expect(now?["id"] as? String == playing, "a remote ended the song")
            }
            // The guest's remote cannot seek; the host's can, and the playhead moves.
            let move = #"{"entry_id":"\#(playing)","position":3.5,"paused":true,"device_id":"guest-tab"}"#
            #expect(try await client.json(.post, "\(base)/playhead", token: guest, body: move).status == .forbidden)
            let moved = try await client.json(.post, "\(base)/playhead", token: host, body: move.replacingOccurrences(of: "guest-tab", with: "other-tab"))
            #expect(moved.status == .ok)
            let playhead = try #require(moved.json["playhead"] as? [String: Any])
            #expect(playhead["position"] as? Double == 3.5 && playhead["paused"] as? Bool == true)
            // The guest presses Play here: now their page plays, and its end report counts.
            #expect(try await client.json(.post, "\(base)/player", token: guest, body: #"{"device_id":"guest-tab"}"#).status == .ok)
            _ = try await client.json(.post, "\(base)/finished", token: guest, body: #"{"entry_id":"\#(playing)","device_id":"guest-tab"}"#)
            let after = try await client.json(.get, base, token: host).json["now_playing"] as? [String: Any]
            #expect(after?["id"] as? String != playing)
        }
    }
}
