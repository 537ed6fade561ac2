import JukeCore
import LiveUpdates
import NIOCore

/// Writes the viewer's message of each frame it is given onto a live game's WebSocket, as a
/// finished WebSocket frame (its header, the crowd's shared part, the viewer's own part),
/// sent with one sendmsg(2) straight to the connection's socket whenever SwiftNIO has
/// nothing of this connection's still to send, and through SwiftNIO otherwise. A
/// connection that cannot take more (a phone on a bad network) is owed only the newest
/// frame, sent when it can take it again: nothing piles up for it.
///
/// Why past SwiftNIO: a reveal is ten thousand of these writes within a hundred
/// milliseconds on two event loops. Through the pipeline, the pending-writes queue, a
/// promise and writev(2), a write cost 12-18 µs of which the kernel's part was 7-10; sent
/// directly, the kernel's part is most of it (reveal p99 at the server 70-90 ms instead of
/// 80-100, measured in the same session: docs/PERFORMANCE.md).
///
/// The direct path is safe because of where the handler sits and when it sends:
/// - It is first in the pipeline, next to the socket, so every write of the rest of the
///   pipeline passes through it and is counted until SwiftNIO has handed it to the kernel
///   (`queued`). A direct send goes out only when that count is zero, so it never
///   overtakes bytes that were written before it; otherwise the message goes through
///   SwiftNIO behind them. Juke serves plain HTTP (TLS ends at a proxy in front of it):
///   nothing between this handler and the socket transforms the bytes.
/// - What the socket does not take at once (its buffer is full) goes through SwiftNIO,
///   which sends it when the socket has room, and everything after it follows it there.
/// - The descriptor is used only on the channel's event loop, from the hub's jobs and from
///   a writability change while the channel is still active, and forgotten when the
///   channel goes inactive. SwiftNIO closes a socket only on that loop, inside one call
///   that marks the channel inactive and tells the pipeline so before any job of the loop
///   runs again, so no send can reach a number the kernel has since given to another
///   connection.
final class TriviaPushHandler: ChannelDuplexHandler {
    /// It sits among the bytes, next to the socket: what passes through is left as it is.
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let user: UserID
    /// Told how long each change took to reach this screen.
    private let delays: @Sendable (Duration) -> Void
    private var context: ChannelHandlerContext?
    /// The connection's allocator, kept from when the handler was added: a reveal asks for
    /// it ten thousand times, and through the context each ask is a walk to the pipeline's
    /// channel.
    private var allocator = ByteBufferAllocator()
    /// The channel's writability, as its changes pass through: asking the channel on each of
    /// a reveal's ten thousand writes reads a separate object per connection, cold.
    private var isWritable = true
    private var owed: (frame: TriviaFrame, since: ContinuousClock.Instant?, host: ByteBuffer?)?
    /// The version of the last frame written. Two frames' jobs can interleave on an event
    /// loop (a reveal's, while an earlier frame's unhurried jobs are still going), so an
    /// older frame can arrive after a newer one: it is dropped. The same version again is
    /// written (the host's list of who is online changes without a new version).
    private var written = Int.min
    /// A message went out since the heartbeat's last turn at this connection.
    private var wroteSincePing = false
    /// The connection's socket while the channel is active; nil on the pipeline path and for
    /// a channel without one (a test's embedded channel), whose messages all go through the
    /// pipeline.
    private var socket: SocketSend?
    /// Writes given to SwiftNIO (by the rest of the pipeline or by this handler) that it has
    /// not yet handed to the kernel, or failed.
    private var queued = 0

    /// Whether messages may go straight to the socket (`PushPath`).
    private let path: PushPath

    init(user: UserID, path: PushPath = .default, delays: @escaping @Sendable (Duration) -> Void) {
        self.user = user
        self.path = path
        self.delays = delays
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        allocator = context.channel.allocator
        isWritable = context.channel.isWritable
        if context.channel.isActive { socket = path.socket(of: context.pipeline) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        socket = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        socket = path.socket(of: context.pipeline)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        socket = nil
        context.fireChannelInactive()
    }

    /// Everything the rest of the pipeline writes passes here, counted until it reaches the
    /// kernel.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        forward(data, flush: false, promise: promise, on: context)
    }

    private func forward(_ data: NIOAny, flush: Bool, promise: EventLoopPromise<Void>? = nil, on context: ChannelHandlerContext) {
        let done = promise ?? context.eventLoop.makePromise()
        queued += 1
        done.futureResult.assumeIsolated().whenComplete { _ in self.queued -= 1 }
        if flush {
            context.writeAndFlush(data, promise: done)
        } else {
            context.write(data, promise: done)
        }
    }

    /// `host`: the message, when this is the host's connection (who is online is in it).
    func push(_ frame: TriviaFrame, since: ContinuousClock.Instant?, host: ByteBuffer?) {
        guard let context else { return }
        let host = frame.host == user ? host : nil
        if frame.version < written { return }
        if let owed, owed.frame.version > frame.version { return }
        // Timed from the oldest change this screen has not seen yet.
        let since = Self.earlier(owed?.since, since)
        owed = nil
        guard isWritable else {
            owed = (frame, since, host)
            return
        }
        write(frame, since: since, host: host, direct: true, on: context)
    }

    /// Pings the connection, unless a message went out on it since its last turn: what
    /// keeps a connection open through a proxy is that something crosses it, and at a reveal
    /// (everyone has just been written to) a ping and its pong would cost a loop a write and
    /// a read each, while it still has thousands of players to write to. A connection is
    /// silent for at most two heartbeat intervals (30 s at the default 15 s; proxies commonly
    /// wait 60 s).
    func ping() {
        guard let context else { return }
        if wroteSincePing {
            wroteSincePing = false
            return
        }
        forward(wrapOutboundOut(WebSocketWire.ping(allocator: allocator)), flush: true, on: context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        if isWritable, let owed {
            self.owed = nil
            // SwiftNIO tells of writability from inside its own work on the channel: the
            // socket is sent to directly only if the channel is still open.
            write(owed.frame, since: owed.since, host: owed.host, direct: context.channel.isActive, on: context)
        }
        context.fireChannelWritabilityChanged()
    }

    private static func earlier(_ a: ContinuousClock.Instant?, _ b: ContinuousClock.Instant?) -> ContinuousClock.Instant? {
        guard let a, let b else { return a ?? b }
        return min(a, b)
    }

    private func write(_ frame: TriviaFrame, since: ContinuousClock.Instant?, host: ByteBuffer?, direct: Bool, on context: ChannelHandlerContext) {
        if var host {
            let message = WebSocketWire.text(allocator: allocator, capacity: host.readableBytes) { $0.writeBuffer(&host) }
            send(message, nil, nil, direct: direct, on: context)
        } else {
            // The crowd's part of the message is the frame's own buffer, written as it is.
            let parts = WebSocketWire.text(allocator: allocator, tailCapacity: frame.typicalTailSize) { tail in
                frame.writeTail(for: user, into: &tail)
            }
            send(parts.header, parts.head, parts.tail, direct: direct, on: context)
        }
        written = frame.version
        wroteSincePing = true
        if let since { delays(.now - since) }
    }

    /// Sends a message's parts, in this order: straight to the socket when `direct` and
    /// SwiftNIO has nothing of this connection's waiting to go before them; what the socket
    /// does not take (or everything, otherwise) goes through SwiftNIO.
    private func send(_ first: ByteBuffer, _ second: ByteBuffer?, _ third: ByteBuffer?, direct: Bool, on context: ChannelHandlerContext) {
        var sent = 0
        if direct, queued == 0, let socket {
            switch socket.send(first, second, third) {
            case .sent(let count): sent = count
            // SwiftNIO, given the same bytes, meets the same error and closes the channel.
            case .failed: break
            }
        }
        let total = first.readableBytes + (second?.readableBytes ?? 0) + (third?.readableBytes ?? 0)
        guard sent < total else { return }
        let rest = SocketSend.unsent([first, second, third].compactMap { $0 }, after: sent)
        for (index, part) in rest.enumerated() {
            forward(wrapOutboundOut(part), flush: index == rest.count - 1, on: context)
        }
    }
}
