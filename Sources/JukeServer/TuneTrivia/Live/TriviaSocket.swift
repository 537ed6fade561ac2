import JukeCore
import NIOCore
import NIOWebSocket

/// A player's WebSocket as the hub writes to it: straight onto the connection's channel,
/// from the connection's own event loop, without a task per connection.
///
/// A reveal goes to every player at once. Waking ten thousand tasks, each building its
/// message and handing it to an asynchronous writer that hops to the event loop again, cost
/// three thread switches per player; the hub now hands each event loop one job that writes
/// to all of its connections (`TriviaSocket.push`).
struct TriviaSocket: Sendable {
    let eventLoop: any EventLoop
    let handler: NIOLoopBound<TriviaPushHandler>

    /// Adds the push handler to the connection's pipeline, just before (headward of) the
    /// WebSocket frame encoder: it writes finished frames, which need no encoding, and
    /// whatever the rest of the pipeline writes passes through it.
    static func attach(to channel: any Channel, user: UserID, delays: @escaping @Sendable (Duration) -> Void) async throws -> TriviaSocket {
        let loop = channel.eventLoop
        let handler = try await loop.submit {
            NIOLoopBound(try install(on: channel, user: user, delays: delays), eventLoop: loop)
        }.get()
        return TriviaSocket(eventLoop: loop, handler: handler)
    }

    /// `attach`'s work, on the channel's event loop.
    static func install(on channel: any Channel, user: UserID, delays: @escaping @Sendable (Duration) -> Void) throws -> TriviaPushHandler {
        let handler = TriviaPushHandler(user: user, delays: delays)
        let encoder = try channel.pipeline.syncOperations.handler(type: WebSocketFrameEncoder.self)
        try channel.pipeline.syncOperations.addHandler(handler, position: .before(encoder))
        return handler
    }

    /// How the writes of one frame share the event loops with everything else.
    enum Pace {
        /// Everyone's screen changes (a reveal): jobs of `jobSize`, one after the other.
        case now
        /// A few screens that can wait a moment (answers coming in, heartbeats): small jobs
        /// a millisecond apart, so the answers themselves are never held up behind them.
        case unhurried
    }

    /// Writes `frame` to every socket, in jobs for each socket's event loop; the host's gets
    /// `host`, the host's message already built.
    static func push(_ frame: TriviaFrame, since: ContinuousClock.Instant?, host: ByteBuffer?, to sockets: [TriviaSocket], pace: Pace) {
        guard !sockets.isEmpty else { return }
        push(frame, since: since, host: host, to: grouped(sockets), pace: pace)
    }

    /// A job for one event loop, to run once that loop has written a frame to its sockets.
    struct Then: Sendable {
        let loop: any EventLoop
        let job: @Sendable () -> Void
    }

    /// `push`, to sockets already sorted by event loop; `then` runs on its loop after that
    /// loop's writes.
    static func push(_ frame: TriviaFrame, since: ContinuousClock.Instant?, host: ByteBuffer?, to groups: [SocketGroup], pace: Pace, then: Then? = nil) {
        var waiting = then
        for group in groups {
            let last = waiting.flatMap { $0.loop === group.loop ? $0.job : nil }
            if last != nil { waiting = nil }
            write(group.handlers[...], on: group.loop, pace: pace, then: last) { $0.push(frame, since: since, host: host) }
        }
        if let waiting { waiting.loop.execute(waiting.job) }  // no writes on its loop
    }

    /// Pings every socket (keeps idle connections open through proxies).
    static func ping(_ sockets: [TriviaSocket]) {
        for group in grouped(sockets) { write(group.handlers[...], on: group.loop, pace: .unhurried) { $0.ping() } }
    }

    /// Sockets an event loop writes in one job. Jobs of this size keep most of the saving,
    /// and the loop's other work (the host's HTTP requests) gets its turn between them
    /// rather than after ten thousand writes.
    static let jobSize = 128
    /// A write costs tens of microseconds (most of it the kernel's): 4 a millisecond leave
    /// an event loop most of its time for the answers coming in (16, at about 60 µs each,
    /// took nearly all of it).
    static let unhurriedJobSize = 4

    private static func grouped(_ sockets: [TriviaSocket]) -> [SocketGroup] {
        var byLoop: [ObjectIdentifier: SocketGroup] = [:]
        for socket in sockets {
            byLoop[ObjectIdentifier(socket.eventLoop), default: SocketGroup(loop: socket.eventLoop)].handlers.append(socket.handler)
        }
        return Array(byLoop.values)
    }

    /// One job, which queues the next when done: whatever the loop was given meanwhile
    /// runs in between.
    private static func write(
        _ handlers: ArraySlice<NIOLoopBound<TriviaPushHandler>>, on loop: any EventLoop, pace: Pace,
        then last: (@Sendable () -> Void)? = nil, _ body: @escaping @Sendable (TriviaPushHandler) -> Void
    ) {
        guard !handlers.isEmpty else {
            if let last { loop.execute(last) }
            return
        }
        let size = pace == .now ? jobSize : unhurriedJobSize
        let job: @Sendable () -> Void = {
            for handler in handlers.prefix(size) { body(handler.value) }
            write(handlers.dropFirst(size), on: loop, pace: pace, then: last, body)
        }
        if pace == .now || handlers.startIndex == 0 {
            loop.execute(job)
        } else {
            loop.scheduleTask(in: .milliseconds(1), job)
        }
    }
}

/// Writes the viewer's message of each frame it is given onto a live game's WebSocket, as a
/// finished WebSocket frame (its header, the crowd's shared part, the viewer's own part: one
/// writev(2)), past the handlers that would otherwise each take it in turn (a reveal is ten
/// thousand of these within a few hundred milliseconds). A connection that cannot take more
/// (a phone on a bad network) is owed only the newest frame, sent when it can take it
/// again: nothing piles up for it.
final class TriviaPushHandler: ChannelDuplexHandler {
    /// It sits among the bytes, headward of the WebSocket encoder: what passes through is
    /// left as it is.
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

    init(user: UserID, delays: @escaping @Sendable (Duration) -> Void) {
        self.user = user
        self.delays = delays
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        allocator = context.channel.allocator
        isWritable = context.channel.isWritable
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
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
        write(frame, since: since, host: host, on: context)
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
        context.writeAndFlush(wrapOutboundOut(WebSocketWire.ping(allocator: allocator)), promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        if isWritable, let owed {
            self.owed = nil
            write(owed.frame, since: owed.since, host: owed.host, on: context)
        }
        context.fireChannelWritabilityChanged()
    }

    private static func earlier(_ a: ContinuousClock.Instant?, _ b: ContinuousClock.Instant?) -> ContinuousClock.Instant? {
        guard let a, let b else { return a ?? b }
        return min(a, b)
    }

    private func write(_ frame: TriviaFrame, since: ContinuousClock.Instant?, host: ByteBuffer?, on context: ChannelHandlerContext) {
        if var host {
            let message = WebSocketWire.text(allocator: allocator, capacity: host.readableBytes) { $0.writeBuffer(&host) }
            context.writeAndFlush(wrapOutboundOut(message), promise: nil)
        } else {
            // The crowd's part of the message is the frame's own buffer, written as it is.
            let parts = WebSocketWire.text(allocator: allocator, tailCapacity: frame.typicalTailSize) { tail in
                frame.writeTail(for: user, into: &tail)
            }
            context.write(wrapOutboundOut(parts.header), promise: nil)
            context.write(wrapOutboundOut(parts.head), promise: nil)
            context.writeAndFlush(wrapOutboundOut(parts.tail), promise: nil)
        }
        written = frame.version
        wroteSincePing = true
        if let since { delays(.now - since) }
    }
}
