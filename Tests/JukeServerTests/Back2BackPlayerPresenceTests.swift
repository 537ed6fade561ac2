import Back2Back
import Foundation
import JukeCore
import JukeTestSupport
import Testing

@testable import Back2BackServer
@testable import JukeServer

/// The page that plays a session goes away (its live connections close): the session is told,
/// the song waits where the page last reported it, and a reload that comes back in time keeps
/// the music where it is.
@Suite(.timeLimit(.minutes(5))) struct Back2BackPlayerPresenceTests {
    @Test(arguments: TestBackend.available)
    func thePlayingPageGoingLeavesTheSongWaitingWhereItWasLastHeard(backend: TestBackend) async throws {
        // The server reads the time and its presence timers sleep on the same hand-moved clock.
        let timers = ManualLiveClock()
        try await TestApp.run(backend, clock: timers.wall(), timers: timers) { app, client in
            let host = try await client.register("host")
            _ = try await app.addSongs(Back2BackAPITests.songs)
            let created = try await client.json(.post, "/api/v1/back2back/sessions", token: host, body: "{}")
            let id = try #require(created.json["id"] as? String)
            let session = try #require(DJSessionID(id))
            let base = "/api/v1/back2back/sessions/\(id)"
            let claimed = try await client.json(.post, "\(base)/player", token: host, body: #"{"device_id":"tab-1"}"#)
            let hostRaw = try #require((claimed.json["player"] as? [String: Any])?["user_id"] as? String)
            let hostID = try #require(UserID(hostRaw))
            let search = try await client.json(.get, "/api/v1/catalog/search?q=entertainer", token: host)
            let track = try #require((search.json["items"] as? [[String: Any]])?.first?["id"] as? String)
            let picked = try await client.json(.post, "\(base)/picks", token: host, body: #"{"track_id":"\#(track)"}"#)
            let playing = try #require((picked.json["now_playing"] as? [String: Any])?["id"] as? String)
            let report = #"{"entry_id":"\#(playing)","position":2,"paused":false,"device_id":"tab-1"}"#
            #expect(try await client.json(.post, "\(base)/playhead", token: host, body: report).status == .ok)
            let service = app.services.back2back
            let tab = PlayingDevice(user: hostID, device: "tab-1")

            // A reload: the page's connection closes and a new one opens within the grace.
            await service.pageConnected(session, device: tab)
            await service.pageDisconnected(session, device: tab)
            await service.pageConnected(session, device: tab)
            #expect(await service.pageTimers.isEmpty, "the reload came back: nothing is waiting to call it gone")
            #expect(try await service.store.load(session)?.session.player == tab)

            // The tab closes; two minutes pass on the server's clock meanwhile.
            timers.advance(by: .seconds(120))
            await service.pageDisconnected(session, device: tab)
            // Gone only once the grace is over: until then, a reload could come back.
            #expect(await timers.waitForSleeper(until: timers.now + Back2BackService.playerGrace), "no grace timer set")
            #expect(try await service.store.load(session)?.session.player == tab, "gone before the grace is over")
            timers.advance(by: Back2BackService.playerGrace)
            let gone = try await eventually { try await service.store.load(session)?.session.player == nil }
            #expect(gone, "the session never heard the playing page go")
            let waiting = try #require(try await service.store.load(session)?.session)
            let playhead = try #require(waiting.playhead)
            #expect(playhead.paused)
            #expect(playhead.position == 2, "where the page last said it was, not where the clock ran to")
            let state = try await client.json(.get, base, token: host).json
            #expect(state["player"] == nil)
            #expect((state["playhead"] as? [String: Any])?["paused"] as? Bool == true)
        }
    }

    /// A page that closes its live connection is heard when it closes, not when a write to it
    /// next fails: with heartbeats an hour apart and no change to send, nothing else would
    /// ever tell. (Before, a gone page still counted as playing for up to 30 s.)
    @Test func aClosedLiveConnectionIsHeardWithoutAWriteToIt() async throws {
        try await TestApp.run(.sqlite, mode: .live, configure: { $0.liveHeartbeat = .seconds(3600) }) { app, client in
            let port = try #require(client.port)
            let host = try await client.register("host")
            let created = try await client.json(.post, "/api/v1/back2back/sessions", token: host, body: "{}")
            let id = try #require(created.json["id"] as? String)
            let session = try #require(DJSessionID(id))
            let service = app.services.back2back
            let request =
                "GET /api/v1/back2back/sessions/\(id)/events?device_id=tab-1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer \(host)\r\n\r\n"
            // The page opens its stream, reads the session, and closes (the connection with it).
            let first = try await RawConnection.offThePool {
                let connection = try RawConnection(port: port)
                connection.send(request)
                return connection.read(until: "event: state", within: 30)
            }
            #expect(first?.hasPrefix("HTTP/1.1 200 OK") == true, "\(first ?? "no answer")")
            var heard = false
            for _ in 0..<1200 {
                if await service.pages[session] == nil, await service.connections[session] == nil {
                    heard = true
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(heard, "the server never heard the page's connection close")
        }
    }
}
