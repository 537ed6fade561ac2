import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import NIOCore
import Testing

@testable import JukeServer

/// A TuneTrivia game is read by its members only (the host and the seated players; the big
/// screen reads through its own pairing token): anyone else signed in is told there is no
/// such game, on every read route and the live connections, so a game id is not confirmed
/// and its invite code is not shown. A newcomer still joins by the invite code.
@Suite(.timeLimit(.minutes(5))) struct TuneTriviaMembersTests {
    @Test(arguments: TestBackend.available)
    func onlyTheGamesMembersReadIt(backend: TestBackend) async throws {
        try await TestApp.run(backend, mode: .live) { app, client in
            let port = try #require(client.port)
            let (host, players, base) = try await TuneTriviaAPITests.startedGame(app, client, players: ["ann"])
            let ann = players[0]
            let eve = try await client.register("eve")
            let code = try #require(try await client.json(.get, base, token: host).json["invite_code"] as? String)

            // The stream routes answer before they stream; for a member they would not end,
            // so only the refusal is asked of them here (members' streams have tests of their own).
            let reads = ["", "/state", "/players", "/rounds", "/scoreboard"]
            for path in reads + ["/events"] {
                let refused = try await client.json(.get, base + path, token: eve)
                #expect(refused.status == .notFound, "\(path): \(refused.json)")
                #expect(!String(buffer: refused.raw).contains(code), "\(path) showed the invite code")
            }
            try await HTTPHardeningTests.expect(
                port,
                "GET \(base)/ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer \(eve)\r\n\r\n",
                "HTTP/1.1 404 Not Found", "the live connection is refused before the upgrade")

            for token in [host, ann] {
                for path in reads {
                    #expect(try await client.json(.get, base + path, token: token).status == .ok, "\(path)")
                }
            }

            // The invite code still seats a newcomer, who then reads the game like any player.
            let joined = try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: eve, body: #"{"invite_code":"\#(code)"}"#)
            #expect(joined.status == .ok, "\(joined.json)")
            for path in reads {
                #expect(try await client.json(.get, base + path, token: eve).status == .ok, "\(path)")
            }
        }
    }
}
