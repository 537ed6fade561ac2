import JukeCore
import LiveUpdates
import NIOCore

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

    /// Adds the push handler to the connection's pipeline, first (next to the socket): it
    /// writes finished frames, which need no encoding, and whatever the rest of the
    /// pipeline writes passes through it, so that it knows when SwiftNIO has bytes of this
    /// connection still to send.
    static func attach(to channel: any Channel, user: UserID, path: PushPath, delays: @escaping @Sendable (Duration) -> Void) async throws
        -> TriviaSocket
    {
        let loop = channel.eventLoop
        let handler = try await loop.submit {
            NIOLoopBound(try install(on: channel, user: user, path: path, delays: delays), eventLoop: loop)
        }.get()
        return TriviaSocket(eventLoop: loop, handler: handler)
    }

    /// `attach`'s work, on the channel's event loop.
    static func install(on channel: any Channel, user: UserID, path: PushPath = .default, delays: @escaping @Sendable (Duration) -> Void) throws
        -> TriviaPushHandler
    {
        let handler = TriviaPushHandler(user: user, path: path, delays: delays)
        try channel.pipeline.syncOperations.addHandler(handler, position: .first)
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
