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

    /// Adds the push handler to the connection's pipeline.
    static func attach(to channel: any Channel, user: UserID, delays: @escaping @Sendable (Duration) -> Void) async throws -> TriviaSocket {
        let loop = channel.eventLoop
        let handler = try await loop.submit {
            let handler = TriviaPushHandler(user: user, delays: delays)
            try channel.pipeline.syncOperations.addHandler(handler)
            return NIOLoopBound(handler, eventLoop: loop)
        }.get()
        return TriviaSocket(eventLoop: loop, handler: handler)
    }

    /// Writes `frame` to every socket, one job per event loop. `online` goes to the host's.
    static func push(_ frame: TriviaFrame, since: ContinuousClock.Instant?, online: Set<UserID>?, to sockets: [TriviaSocket]) {
        forEachLoop(sockets) { $0.push(frame, since: since, online: online) }
    }

    /// Pings every socket (keeps idle connections open through proxies).
    static func ping(_ sockets: [TriviaSocket]) {
        forEachLoop(sockets) { $0.ping() }
    }

    /// Sockets an event loop writes in one job. Jobs of this size keep most of the saving,
    /// and the loop's other work (the host's HTTP requests) gets its turn between them
    /// rather than after ten thousand writes.
    static let jobSize = 128

    private static func forEachLoop(_ sockets: [TriviaSocket], _ body: @escaping @Sendable (TriviaPushHandler) -> Void) {
        var byLoop: [ObjectIdentifier: (loop: any EventLoop, handlers: [NIOLoopBound<TriviaPushHandler>])] = [:]
        for socket in sockets {
            byLoop[ObjectIdentifier(socket.eventLoop), default: (socket.eventLoop, [])].handlers.append(socket.handler)
        }
        for (loop, handlers) in byLoop.values { write(handlers[...], on: loop, body) }
    }

    /// One job, which queues the next when done: whatever the loop was given meanwhile
    /// runs in between.
    private static func write(
        _ handlers: ArraySlice<NIOLoopBound<TriviaPushHandler>>, on loop: any EventLoop, _ body: @escaping @Sendable (TriviaPushHandler) -> Void
    ) {
        guard !handlers.isEmpty else { return }
        loop.execute {
            for handler in handlers.prefix(jobSize) { body(handler.value) }
            write(handlers.dropFirst(jobSize), on: loop, body)
        }
    }
}

/// The last handler of a live game's WebSocket pipeline: writes the viewer's message of each
/// frame it is given. A connection that cannot take more (a phone on a bad network) is owed
/// only the newest frame, sent when it can take it again: nothing piles up for it.
final class TriviaPushHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let user: UserID
    /// Told how long each change took to reach this screen.
    private let delays: @Sendable (Duration) -> Void
    private var context: ChannelHandlerContext?
    private var owed: (frame: TriviaFrame, since: ContinuousClock.Instant?, online: Set<UserID>?)?

    init(user: UserID, delays: @escaping @Sendable (Duration) -> Void) {
        self.user = user
        self.delays = delays
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func push(_ frame: TriviaFrame, since: ContinuousClock.Instant?, online: Set<UserID>?) {
        guard let context else { return }
        let online = frame.game.host == user ? online : nil
        if let owed, owed.frame.version > frame.version { return }
        // Timed from the oldest change this screen has not seen yet.
        let since = [owed?.since, since].compactMap { $0 }.min()
        owed = nil
        guard context.channel.isWritable else {
            owed = (frame, since, online)
            return
        }
        write(frame, since: since, online: online, on: context)
    }

    func ping() {
        // A control frame must be final (FIN set): a non-final ping is a protocol error.
        context?.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer())), promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let owed {
            self.owed = nil
            write(owed.frame, since: owed.since, online: owed.online, on: context)
        }
        context.fireChannelWritabilityChanged()
    }

    private func write(_ frame: TriviaFrame, since: ContinuousClock.Instant?, online: Set<UserID>?, on context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: frame.typicalSize)
        do {
            try frame.write(for: user, online: online, into: &buffer)
        } catch {
            // The frame could not be encoded (cannot happen with the contract's types): the
            // screen would stay behind, so the connection closes and the page reconnects.
            context.close(promise: nil)
            return
        }
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: buffer)), promise: nil)
        if let since { delays(.now - since) }
    }
}
