import Back2Back
import Foundation

/// Who is watching which session, and a wake-up for each of them when it changes. The pages
/// then receive the new state over server-sent events instead of polling.
actor Back2BackLive {
    enum Signal: Sendable, Equatable {
        case changed(version: Int)
        case deleted
        case heartbeat
    }

    private var watchers: [DJSessionID: [UUID: AsyncStream<Signal>.Continuation]] = [:]
    private let heartbeat: Duration

    init(heartbeat: Duration = .seconds(15)) { self.heartbeat = heartbeat }

    /// A stream of signals for one watcher of `id`, until `unsubscribe`.
    func subscribe(_ id: DJSessionID) -> (token: UUID, signals: AsyncStream<Signal>) {
        let token = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingNewest(4))
        watchers[id, default: [:]][token] = continuation
        // Comments on the wire now and then keep idle connections open through proxies.
        let interval = heartbeat
        let beat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                continuation.yield(.heartbeat)
            }
        }
        continuation.onTermination = { _ in beat.cancel() }
        return (token, stream)
    }

    func unsubscribe(_ id: DJSessionID, _ token: UUID) {
        watchers[id]?.removeValue(forKey: token)?.finish()
        if watchers[id]?.isEmpty == true { watchers[id] = nil }
    }

    func changed(_ id: DJSessionID, version: Int) {
        for continuation in (watchers[id] ?? [:]).values { continuation.yield(.changed(version: version)) }
    }

    func deleted(_ id: DJSessionID) {
        for continuation in (watchers.removeValue(forKey: id) ?? [:]).values {
            continuation.yield(.deleted)
            continuation.finish()
        }
    }

    func watcherCount(_ id: DJSessionID) -> Int { watchers[id]?.count ?? 0 }
}
