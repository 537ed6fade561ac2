import Foundation
import JukeCore
import LiveUpdates
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOPosix
import NIOWebSocket
import Testing

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

#if canImport(Glibc)
    import Glibc
#endif

/// The push handler on a real TCP connection, where it sends straight to the socket: what
/// goes past SwiftNIO and what goes through it, and that nothing overtakes anything.
@Suite(.timeLimit(.minutes(5))) struct TriviaPushSocketTests {
    /// Counts the bytes that pass through SwiftNIO's write path between the push handler and
    /// the socket (it sits next to the socket, headward of the handler).
    final class ThroughSwiftNIO: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = ByteBuffer
        let bytes = NIOLockedValueBox(0)

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            let count = unwrapOutboundIn(data).readableBytes
            bytes.withLockedValue { $0 += count }
            context.write(data, promise: promise)
        }
    }

    /// Keeps what the player's end of the connection reads.
    final class Received: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let bytes = NIOLockedValueBox(ByteBuffer())

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var part = unwrapInboundIn(data)
            bytes.withLockedValue { $0.writeBuffer(&part) }
        }

        /// The WebSocket frames read so far, decoded.
        func frames() throws -> [String] {
            let bytes = self.bytes.withLockedValue { $0 }
            let decoder = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 24)))
            try decoder.writeInbound(bytes)
            var texts: [String] = []
            while let frame = try decoder.readInbound(as: WebSocketFrame.self) {
                #expect(frame.fin && frame.opcode == .text && frame.maskKey == nil)
                texts.append(String(buffer: frame.data))
            }
            _ = try? decoder.finish()
            return texts
        }
    }

    /// A server's end of one connection with the push handler (for the game's host, whose
    /// messages are whatever the test gives) and the counter next to the socket; and the
    /// player's end, which reads only once told to.
    struct Connection {
        let listener: any Channel
        let server: any Channel
        let player: any Channel
        let handler: NIOLoopBound<TriviaPushHandler>
        let throughSwiftNIO: ThroughSwiftNIO
        let received: Received
        let frame: (Int) throws -> TriviaFrame

        /// `small`: both ends' socket buffers as small as the kernel allows, so that a large
        /// message does not fit.
        static func open(small: Bool, path: PushPath = .direct) async throws -> Connection {
            let (game, users) = try TriviaPushTests.game()
            let group = MultiThreadedEventLoopGroup.singleton
            let accepted = group.any().makePromise(of: (any Channel).self)
            let listener = try await ServerBootstrap(group: group)
                .childChannelOption(.socketOption(.so_sndbuf), value: small ? 4096 : 1 << 20)
                .childChannelInitializer { channel in
                    accepted.succeed(channel)
                    return channel.eventLoop.makeSucceededVoidFuture()
                }
                .bind(host: "127.0.0.1", port: 0).get()
            let received = Received()
            let player = try await ClientBootstrap(group: group)
                .channelOption(.socketOption(.so_rcvbuf), value: small ? 4096 : 1 << 20)
                .channelOption(.autoRead, value: false)
                .channelInitializer { $0.pipeline.addHandler(received) }
                .connect(host: "127.0.0.1", port: try #require(listener.localAddress?.port)).get()
            let server = try await accepted.futureResult.get()
            let counter = ThroughSwiftNIO()
            let handler = try await server.eventLoop.submit {
                let handler = try TriviaSocket.install(on: server, user: game.host, path: path, delays: { _ in })
                try server.pipeline.syncOperations.addHandler(counter, position: .first)
                return NIOLoopBound(handler, eventLoop: server.eventLoop)
            }.get()
            return Connection(
                listener: listener, server: server, player: player, handler: handler, throughSwiftNIO: counter, received: received,
                frame: { try TriviaFrame(game: game, version: $0) })
        }

        /// Pushes the host's message `text` as version `version` of the game, on the
        /// connection's event loop.
        func push(_ text: String, version: Int) async throws {
            let frame = try frame(version)
            try await server.eventLoop.submit { handler.value.push(frame, since: nil, host: ByteBuffer(string: text)) }.get()
        }

        /// The player's end reads from now on, until the frames it has read are `done` (or a
        /// minute has passed).
        func read(until done: ([String]) -> Bool) async throws -> [String] {
            try await player.setOption(.autoRead, value: true).get()
            player.read()
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let frames = try received.frames()
                if done(frames) { return frames }
                try await Task.sleep(for: .milliseconds(5))
            }
            return try received.frames()
        }

        func read(until count: Int) async throws -> [String] {
            try await read { $0.count >= count }
        }

        func close() async {
            try? await player.close()
            try? await server.closeFuture.get()
            // Last: while it is open, the number the server's socket frees is the lowest free.
            try? await listener.close()
        }
    }

    @Test func aMessageGoesStraightToTheSocketWhenSwiftNIOHasNothingWaiting() async throws {
        let connection = try await Connection.open(small: false)
        try await connection.push("one", version: 1)
        #expect(try await connection.read(until: 1) == ["one"])
        #expect(connection.throughSwiftNIO.bytes.withLockedValue { $0 } == 0)

        // A frame the rest of the pipeline wrote and has not flushed yet: the next message
        // goes through SwiftNIO behind it, both are flushed together, in order.
        let before = WebSocketWire.text(allocator: ByteBufferAllocator(), capacity: 8) { $0.writeString("before") }
        let server = connection.server
        try await server.eventLoop.submit { server.write(before, promise: nil) }.get()
        try await connection.push("two", version: 2)
        #expect(try await connection.read(until: 3) == ["one", "before", "two"])
        let passed = connection.throughSwiftNIO.bytes.withLockedValue { $0 }
        #expect(passed == before.readableBytes + 2 + 3)

        // Once SwiftNIO has handed those to the kernel, messages go straight to the socket again.
        try await connection.push("three", version: 3)
        #expect(try await connection.read(until: 4) == ["one", "before", "two", "three"])
        #expect(connection.throughSwiftNIO.bytes.withLockedValue { $0 } == passed)
        await connection.close()
    }

    /// The other path: every message through SwiftNIO, even when nothing waits, in order and
    /// whole, and a connection that cannot keep up is owed only the newest.
    @Test func onThePipelinePathEveryMessageGoesThroughSwiftNIO() async throws {
        let connection = try await Connection.open(small: true, path: .pipeline)
        try await connection.push("one", version: 1)
        #expect(try await connection.read(until: 1) == ["one"])
        #expect(connection.throughSwiftNIO.bytes.withLockedValue { $0 } == 2 + 3)
        let big = String(repeating: "0123456789abcdef", count: 1 << 16)
        try await connection.push(big, version: 2)
        for version in 3...5 { try await connection.push("message \(version)", version: version) }
        let frames = try await connection.read { $0.last == "message 5" }
        #expect(frames.first == "one" && frames.dropFirst().first == big)
        #expect(frames.last == "message 5")
        await connection.close()
    }

    @Test func whatTheSocketCannotTakeGoesThroughSwiftNIOAndNothingOvertakesIt() async throws {
        let connection = try await Connection.open(small: true)
        // A megabyte: far more than both ends' buffers hold while the player does not read.
        let big = String(repeating: "0123456789abcdef", count: 1 << 16)
        try await connection.push(big, version: 1)
        let passed = connection.throughSwiftNIO.bytes.withLockedValue { $0 }
        // The kernel took what it had room for, SwiftNIO has the rest.
        #expect(passed > 0 && passed < big.utf8.count)

        // More messages while the player is not reading: none may pass the first. A
        // connection that cannot take more is owed only the newest.
        for version in 2...4 { try await connection.push("message \(version)", version: version) }
        let frames = try await connection.read { $0.last == "message 4" }
        #expect(frames.first == big)
        #expect(frames.last == "message 4")
        let versions = frames.dropFirst().compactMap { Int($0.split(separator: " ").last ?? "") }
        #expect(versions == versions.sorted() && Set(versions).count == versions.count && versions.count == frames.count - 1)

        // With SwiftNIO's queue empty again, the next message goes straight to the socket.
        let before = connection.throughSwiftNIO.bytes.withLockedValue { $0 }
        try await connection.push("message 5", version: 5)
        #expect(try await connection.read(until: frames.count + 1).last == "message 5")
        #expect(connection.throughSwiftNIO.bytes.withLockedValue { $0 } == before)
        await connection.close()
    }

    /// Once the connection has closed, its socket's number may belong to another file: a
    /// push must not send to it.
    @Test func aClosedConnectionsSocketIsNeverSentToAgain() async throws {
        let connection = try await Connection.open(small: false)
        let server = connection.server
        let handler = connection.handler
        let number = try #require(try await server.eventLoop.submit { SocketSend.of(server.pipeline)?.descriptor }.get())
        let frame = try connection.frame(9)
        // In one turn of the event loop: the channel closes (SwiftNIO removes its handlers
        // only in a later turn), a new socket pair most likely gets the number just freed
        // (the kernel hands out the lowest; another test may take it first, and then nothing
        // here reaches the pair), and a push comes for the closed connection.
        let pair = try await server.eventLoop.submit { () -> [Int32] in
            server.close(promise: nil)
            var pair: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { return [] }
            handler.value.push(frame, since: nil, host: ByteBuffer(string: "late"))
            return pair
        }.get()
        #expect(pair.count == 2)
        defer { for end in pair { Glibc.close(end) } }
        for (end, other) in zip(pair, pair.reversed()) where end == number {
            var byte: UInt8 = 0
            let read = recv(other, &byte, 1, Int32(MSG_DONTWAIT))
            #expect(read == -1 && (errno == EAGAIN || errno == EWOULDBLOCK), "the closed connection's push reached the file now at its number")
        }
        await connection.close()
    }
}

@Suite(.timeLimit(.minutes(5))) struct SocketSendTests {
    @Test func whatIsLeftOfTheParts() {
        let parts = [ByteBuffer(string: "ab"), ByteBuffer(string: ""), ByteBuffer(string: "cde"), ByteBuffer(string: "f")]
        let cases: [(Int, [String])] = [
            (0, ["ab", "cde", "f"]), (1, ["b", "cde", "f"]), (2, ["cde", "f"]), (4, ["e", "f"]), (5, ["f"]), (6, []), (7, []),
        ]
        for (sent, expected) in cases {
            #expect(SocketSend.unsent(parts, after: sent).map { String(buffer: $0) } == expected, "after \(sent)")
        }
    }
}
