import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import JukeTestSupport
import Logging
import Synchronization
import Testing

@testable import JukeServer

/// The live game over a real WebSocket: it stays open through its heartbeats and carries
/// the next change. (A heartbeat ping once went out without its FIN bit, which every client
/// must treat as a protocol error: each connection died at its first heartbeat.)
@Suite struct TriviaWebSocketTests {
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
