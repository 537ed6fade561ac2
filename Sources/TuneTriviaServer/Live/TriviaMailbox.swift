import Foundation
import Synchronization

/// What is waiting for one connection: the newest frame (an older one not yet sent is
/// simply replaced: the newest state says everything), a heartbeat, or the game's end.
/// Wake-ups coalesce, and nothing posted is lost between them.
final class TriviaMailbox: Sendable {
    struct Mail: Sendable {
        var frame: TriviaFrame?
        /// When the oldest change in `frame` was made: what its delivery is measured from.
        var since: ContinuousClock.Instant?
        var heartbeat = false
        var deleted = false
    }

    let token = UUID()
    let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let mail = Mutex(Mail())

    init() {
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func post(_ frame: TriviaFrame, since: ContinuousClock.Instant?) {
        mail.withLock { m in
            if let current = m.frame, current.version > frame.version { return }
            m.frame = frame
            if let since { m.since = min(m.since ?? since, since) }
        }
        wake.yield()
    }

    func beat() {
        mail.withLock { $0.heartbeat = true }
        wake.yield()
    }

    func delete() {
        mail.withLock { $0.deleted = true }
        wake.yield()
    }

    /// Everything waiting, emptying the box.
    func take() -> Mail {
        mail.withLock { m in
            defer { m = Mail() }
            return m
        }
    }

    func close() { wake.finish() }
}
