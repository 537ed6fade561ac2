import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import JukeCore
import JukeTestSupport
import Logging
import Synchronization
import Testing
import TuneTrivia

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

/// The live game over a real WebSocket: it stays open through its heartbeats and carries
/// the next change. (A heartbeat ping once went out without its FIN bit, which every client
/// must treat as a protocol error: each connection died at its first heartbeat.)
@Suite(.timeLimit(.minutes(5))) struct TriviaWebSocketTests {
    @Test func aConnectionOutlivesItsHeartbeatsAndCarriesTheNextChange() async throws {
        try await TestApp.run(.sqlite, mode: .live, configure: { $0.liveHeartbeat = .milliseconds(100) }) { _, client in
            let token = try await client.register("host")
            let created = try await client.json(.post, "/api/v1/tunetrivia/sessions", token: token, body: #"{"title":"Before"}"#)
            let id = try #require(created.json["id"] as? String)
            let port = try #require(client.port)
            let seen = Mutex<[String]>([])
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(token)"
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/tunetrivia/sessions/\(id)/ws",
                configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers), logger: Logger(label: "test")
            ) { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                if case .text(let first) = try await messages.next() { seen.withLock { $0.append(first) } }
                // Ten heartbeats go by; then the host renames the game.
                try await Task.sleep(for: .seconds(1))
                let renamed = try await client.json(.patch, "/api/v1/tunetrivia/sessions/\(id)", token: token, body: #"{"title":"After"}"#)
                #expect(renamed.status == .ok)
                if case .text(let next) = try await messages.next() { seen.withLock { $0.append(next) } }
            }
            let messages = seen.withLock { $0 }
            #expect(messages.count == 2)
            #expect(messages.first?.contains(#""title":"Before""#) == true)
            #expect(messages.last?.contains(#""title":"After""#) == true)
        }
    }
}

/// A change for everyone goes to the room's sockets as the hub keeps them sorted by event
/// loop: each player gets their own view and the host the host's, also after a player left.
@Suite(.timeLimit(.minutes(5))) struct TriviaRevealOverWebSocketsTests {
    /// What the connections have seen: how many have their first state, and each one's reveal.
    final class Seen: Sendable {
        let ready = Atomic<Int>(0)
        let revealed = Mutex<[String: String]>([:])
    }

    static func connect(
        _ url: String, token: String, _ body: @escaping @Sendable (inout WebSocketInboundMessageStream.AsyncIterator) async throws -> Void
    ) async throws {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        try await WebSocketClient.connect(
            url: url, configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers), logger: Logger(label: "test")
        ) { inbound, _, _ in
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            try await body(&messages)
        }
    }

    // The limit guards against a hang, not speed: the whole suite runs at once on two cores.
    @Test(.timeLimit(.minutes(3))) func aRevealReachesEveryPlayersSocketAndTheHostsOwn() async throws {
        try await TestApp.run(.sqlite, mode: .live) { app, client in
            let game = try await TuneTriviaAPITests.startedGame(app, client, players: ["ann", "bob", "cyd"])
            let port = try #require(client.port)
            let url = "ws://127.0.0.1:\(port)\(game.base)/ws"
            let id = try #require(SessionID(String(game.base.split(separator: "/").last ?? "")))
            let hub = await app.services.tuneTrivia.hub
            var seats: [String: String] = [:]
            for (name, token) in [("bob", game.players[1]), ("cyd", game.players[2])] {
                seats[name] = try #require(try await client.json(.get, game.base, token: token).json["you"] as? String)
            }

            // Ann was the first to connect and leaves before the reveal.
            try await Self.connect(url, token: game.players[0]) { messages in _ = try await messages.next() }
            let seen = Seen()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (name, token) in [("host", game.host), ("bob", game.players[1]), ("cyd", game.players[2])] {
                    group.addTask {
                        try await Self.connect(url, token: token) { messages in
                            _ = try await messages.next()
                            seen.ready.add(1, ordering: .relaxed)
                            while let message = try await messages.next() {
                                guard case .text(let text) = message, text.contains(#""is_revealed":true"#) else { continue }
                                seen.revealed.withLock { $0[name] = text }
                                return
                            }
                        }
                    }
                }
                // Everyone else connected, and Ann's connection gone from the hub.
                let everyoneElseIn = await eventually {
                    let online = await hub.online(id)
                    return seen.ready.load(ordering: .relaxed) == 3 && online.count == 3
                }
                #expect(everyoneElseIn)
                #expect(try await client.json(.post, "\(game.base)/reveal", token: game.host).status == .ok)
                try await group.waitForAll()
            }
            let revealed = seen.revealed.withLock { $0 }
            #expect(revealed["host"]?.contains(#""is_host":true"#) == true)
            for name in ["bob", "cyd"] {
                #expect(revealed[name]?.contains(#""is_host":false"#) == true)
                #expect(revealed[name]?.contains(#""you":"\#(seats[name] ?? "?")""#) == true)
            }
        }
    }
}
