import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeTestSupport
import Testing

@testable import JukePlatform

/// What a hostile or broken client meets at the HTTP level, over real sockets: malformed
/// requests answered and closed, silent and slow connections let go, refused WebSocket
/// upgrades that say why, HEAD and 405, and a chunked body past the limit.
@Suite(.timeLimit(.minutes(5))) struct HTTPHardeningTests {
    /// A live server whose header timeout is `headerTimeout`: short where a test waits for it,
    /// longer where the test client's own connection must outlast a busy machine's pauses (it
    /// is opened before the test's first request, and a short timeout drops it while idle).
    static func live(headerTimeout: Duration = .seconds(1), _ body: @escaping @Sendable (Int, any TestClientProtocol) async throws -> Void)
        async throws
    {
        try await TestApp.run(.sqlite, mode: .live, configure: { $0.headerTimeout = headerTimeout }) { _, client in
            try await body(try #require(client.port), client)
        }
    }

    /// The first line of what the server sent before closing, or why not.
    static func answer(port: Int, _ request: String) async throws -> String {
        guard let text = try await RawConnection.exchange(port: port, request) else { return "still open" }
        return text.split(separator: "\r\n").first.map(String.init) ?? "closed without an answer"
    }

    static func expect(_ port: Int, _ request: String, _ expected: String, _ why: String = "", sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let first = try await answer(port: port, request)
        #expect(first == expected, "\(why)", sourceLocation: sourceLocation)
    }

    @Test func malformedRequestsAreAnsweredAndClosed() async throws {
        try await Self.live { port, _ in
            try await Self.expect(port, "GARBAGE\r\n\r\n", "HTTP/1.1 400 Bad Request")
            try await Self.expect(port, "GET /health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u{0}b\r\n\r\n", "HTTP/1.1 400 Bad Request")
            try await Self.expect(port, "FROB /health HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 400 Bad Request")
            let huge = "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 1_000_000) + "\r\n\r\n"
            try await Self.expect(port, huge, "HTTP/1.1 431 Request Header Fields Too Large")
            // A good request on the same server is still answered.
            try await Self.expect(port, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "HTTP/1.1 200 OK")
        }
    }

    @Test func silentAndSlowConnectionsAreLetGo() async throws {
        try await Self.live { port, _ in
            let silent = try await RawConnection.exchange(port: port, "")
            #expect(silent == "", "a connection that sends nothing is closed")
            let slow = try await RawConnection.offThePool {
                let connection = try RawConnection(port: port)
                connection.send("GET /health HTTP/1.1\r\n")
                Thread.sleep(forTimeInterval: 0.4)
                connection.send("Host: x\r\n")
                return connection.readUntilClosed(within: 20)
            }
            #expect(slow == "", "a head that never ends is closed")

            // A kept-alive connection serves one request after another within the timeout.
            let both = try await RawConnection.offThePool {
                let connection = try RawConnection(port: port)
                connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                Thread.sleep(forTimeInterval: 0.3)
                connection.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return connection.readUntilClosed(within: 20) ?? ""
            }
            #expect(both.components(separatedBy: "HTTP/1.1 200 OK").count == 3, "\(both)")
        }
    }

    @Test func aRefusedWebSocketUpgradeSaysWhy() async throws {
        try await Self.live(headerTimeout: .seconds(30)) { port, client in
            let token = try await client.register("host")
            func upgrade(_ extra: String, _ expected: String, _ why: String) async throws {
                try await Self.expect(
                    port,
                    "GET /api/v1/tunetrivia/sessions/\(UUID().uuidString)/ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
                        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\(extra)\r\n", expected, why)
            }
            try await upgrade("", "HTTP/1.1 401 Unauthorized", "no session")
            try await upgrade("Authorization: Bearer \(token)\r\n", "HTTP/1.1 404 Not Found", "no such game")
            try await upgrade("Authorization: Bearer \(token)\r\nOrigin: https://evil.example\r\n", "HTTP/1.1 403 Forbidden", "another site")
        }
    }

    @Test func aChunkedBodyPastTheLimitIsTooLarge() async throws {
        try await Self.live { port, _ in
            let chunk = String(repeating: "a", count: 100_000)
            let request =
                "POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n0\r\n\r\n"
            try await Self.expect(port, request, "HTTP/1.1 413 Payload Too Large")
        }
    }

    @Test func headIsAnsweredAndAWrongMethodIs405() async throws {
        try await TestApp.run(.sqlite) { _, client in
            let token = try await client.register("admin")
            let page = try await client.execute(uri: "/login", method: .head)
            #expect(page.status == .ok && page.body.readableBytes == 0)
            let me = try await client.execute(uri: "/api/v1/auth/me", method: .head, headers: [.authorization: "Bearer \(token)"])
            #expect(me.status == .ok && me.body.readableBytes == 0 && me.headers[.contentType]?.hasPrefix("application/json") == true)
            let wrong = try await client.json(.delete, "/api/v1/library/status", token: token)
            #expect(wrong.status == .methodNotAllowed && wrong.headers[.allow] == "GET, HEAD", "\(wrong.headers)")
            #expect(wrong.json["error"] as? String == "method_not_allowed")
            let post = try await client.json(.put, "/api/v1/tunetrivia/sessions/\(UUID().uuidString)/guess", token: token, body: "{}")
            #expect(post.status == .methodNotAllowed && post.headers[.allow] == "POST")
            #expect(try await client.json(.get, "/api/v1/no/such/thing", token: token).status == .notFound)
        }
    }

    @Test func theContractsMethodsAreRead() {
        let table = AllowedMethods(
            contract: "openapi: 3.1.0\npaths:\n  /a/{id}:\n    get:\n      x: 1\n    delete:\n  /b:\n    post:\ncomponents:\n  /c:\n    get:\n")
        #expect(table.methods(for: "/a/42") == ["GET", "DELETE", "HEAD"])
        #expect(table.methods(for: "/b") == ["POST"])
        #expect(table.methods(for: "/c") == nil && table.methods(for: "/a") == nil && table.methods(for: "/a/1/2") == nil)
    }
}
