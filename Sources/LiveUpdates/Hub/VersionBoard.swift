import Foundation

/// Who watches which subject (a Back2Back session), and a wake-up for each watcher when the
/// subject's version moves: for rooms small enough that every watcher gets every change, each
/// on a stream of its own (server-sent events). A heartbeat now and then keeps an idle stream
/// open through proxies; its time comes from the injected clock.
public actor VersionBoard<Subject: Hashable & Sendable> {
    public enum Signal: Sendable, Equatable {
        case changed(version: Int)
        case deleted
        case heartbeat
    }

    private var watchers: [Subject: [UUID: AsyncStream<Signal>.Continuation]] = [:]
    private let heartbeat: Duration
    private let clock: any LiveClock

    public init(heartbeat: Duration = .seconds(15), clock: any LiveClock = SystemLiveClock()) {
        self.heartbeat = heartbeat
        self.clock = clock
    }

    /// A stream of signals for one watcher of `subject`, until `unsubscribe`.
    public func subscribe(_ subject: Subject) -> (token: UUID, signals: AsyncStream<Signal>) {
        let token = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingNewest(4))
        watchers[subject, default: [:]][token] = continuation
        // Comments on the wire now and then keep idle connections open through proxies.
        let (interval, clock) = (heartbeat, self.clock)
        let beat = Task {
            while !Task.isCancelled {
                do {
                    try await clock.sleep(until: clock.now + interval)
                } catch {
                    return
                }
                continuation.yield(.heartbeat)
            }
        }
        continuation.onTermination = { _ in beat.cancel() }
        return (token, stream)
    }

    public func unsubscribe(_ subject: Subject, _ token: UUID) {
        watchers[subject]?.removeValue(forKey: token)?.finish()
        if watchers[subject]?.isEmpty == true { watchers[subject] = nil }
    }

    public func changed(_ subject: Subject, version: Int) {
        for continuation in (watchers[subject] ?? [:]).values { continuation.yield(.changed(version: version)) }
    }

    public func deleted(_ subject: Subject) {
        for continuation in (watchers.removeValue(forKey: subject) ?? [:]).values {
            continuation.yield(.deleted)
            continuation.finish()
        }
    }

    public func watcherCount(_ subject: Subject) -> Int { watchers[subject]?.count ?? 0 }

    /// The subjects someone watches here.
    public var watched: [Subject] { Array(watchers.keys) }
}
