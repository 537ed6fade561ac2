import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A kept-alive HTTP/1.1 connection to the server under test, one request at a time: the
/// load benchmark's own client, so that what it measures is Juke, not a client library.
struct LoopbackHTTP: Sendable {
    struct Reply: Sendable {
        let status: Int
        let body: Data
    }

    let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>

    /// Sends one request (method, path, bearer token, JSON body) and returns its reply.
    typealias Send = (String, String, String?, String?) async throws -> Reply

    static func connect(port: Int) async throws -> LoopbackHTTP {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return LoopbackHTTP(channel: channel)
    }

    /// Runs `body` with a function that sends one request and returns its reply.
    func session(_ body: (_ send: Send) async throws -> Void) async throws {
        try await channel.executeThenClose { inbound, outbound in
            var responses = inbound.makeAsyncIterator()
            try await body { method, path, token, json in
                var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path)
                head.headers.add(name: "Host", value: "127.0.0.1")
                if let token { head.headers.add(name: "Authorization", value: "Bearer \(token)") }
                let payload = json.map { ByteBuffer(string: $0) }
                if let payload {
                    head.headers.add(name: "Content-Type", value: "application/json")
                    head.headers.add(name: "Content-Length", value: String(payload.readableBytes))
                } else {
                    head.headers.add(name: "Content-Length", value: "0")
                }
                try await outbound.write(.head(head))
                if let payload { try await outbound.write(.body(.byteBuffer(payload))) }
                try await outbound.write(.end(nil))
                var status = 0
                var data = Data()
                while let part = try await responses.next() {
                    switch part {
                    case .head(let h): status = Int(h.status.code)
                    case .body(var b): data.append(contentsOf: b.readBytes(length: b.readableBytes) ?? [])
                    case .end: return Reply(status: status, body: data)
                    }
                }
                throw LoadError.closed
            }
        }
    }
}

enum LoadError: Error, CustomStringConvertible {
    case closed
    case refused(String)

    var description: String {
        switch self {
        case .closed: "the server closed the connection"
        case .refused(let why): why
        }
    }
}
