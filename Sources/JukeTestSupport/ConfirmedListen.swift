import Foundation
import Storage
import Synchronization

/// LISTEN that a test can rely on: returns once the listener is known to be in place, which
/// a probe NOTIFY proves by arriving (PostgreSQL starts delivering only after LISTEN has
/// run), instead of sleeping and hoping. The probe is not passed to `receive`. Cancel the
/// returned task to stop listening.
public func confirmedListen(
    _ database: any JukeDatabase, channel: String, limit: Duration = .seconds(30), _ receive: @escaping @Sendable (String) async -> Void
) async throws -> Task<Void, any Error> {
    let probe = "juke-test-probe-\(UUID())"
    let heard = Mutex(false)
    let task = Task {
        try await database.listen(channel: channel) { payload in
            if payload == probe { heard.withLock { $0 = true } } else { await receive(payload) }
        }
    }
    let giveUp = ContinuousClock.now + limit
    while ContinuousClock.now < giveUp {
        try await database.notify(channel: channel, payload: probe)
        // A state to wait for: the probe arriving, looked at every few milliseconds.
        for _ in 0..<20 {
            if heard.withLock({ $0 }) { return task }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
    task.cancel()
    throw ListenNotConfirmed(channel: channel)
}

/// LISTEN did not take within the limit.
public struct ListenNotConfirmed: Error, CustomStringConvertible {
    public let channel: String
    public var description: String { "LISTEN on \(channel) was not confirmed in time" }
}

/// Waits until `condition` holds: a state another task or server brings about, looked at
/// every few milliseconds, with a limit in real time so that a bug fails instead of hanging.
/// Returns whether it came. The limit is generous because it only bounds a bug: with every
/// test running at once on two cores, some states take tens of seconds to come (a transcode
/// ahead of its listener runs at SCHED_IDLE, on idle CPU time), and a state that comes is seen
/// at once.
public func eventually(limit: Duration = .seconds(120), _ condition: @Sendable () async throws -> Bool) async rethrows -> Bool {
    let giveUp = ContinuousClock.now + limit
    while ContinuousClock.now < giveUp {
        if try await condition() { return true }
        // Cancelled (the test's time limit passed): stop looking. With `try?` the sleep threw at
        // once on every turn, so the loop spun at full speed until its limit, each throw paying
        // for Swift Testing's backtrace; a few such loops took both cooperative threads and every
        // other test then ran out of time too: the full runs' stalls (thread dump: both threads
        // in Task.sleep's throw, capturing a backtrace).
        do { try await Task.sleep(for: .milliseconds(5)) } catch { break }
    }
    return try await condition()
}
