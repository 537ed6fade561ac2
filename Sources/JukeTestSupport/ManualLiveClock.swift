import Foundation
import JukeCore
import LiveUpdates
import Synchronization

/// A clock for live hubs that moves only when a test says so: `advance` wakes whoever sleeps
/// until then. Tests of timing rules assert what happens at each made-up time and never how
/// long anything took.
public final class ManualLiveClock: LiveClock {
    private struct Sleeper {
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: ContinuousClock.Instant
        var sleepers: [UUID: Sleeper] = [:]
    }

    private let state: Mutex<State>

    public init(start: ContinuousClock.Instant = .now) { state = Mutex(State(now: start)) }

    public var now: ContinuousClock.Instant { state.withLock { $0.now } }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Now { case wait, wake, cancelled }
                let now = state.withLock { s -> Now in
                    // Checked under the lock: a cancellation before the sleeper is listed
                    // would otherwise find nothing to wake.
                    if Task.isCancelled { return .cancelled }
                    if deadline <= s.now { return .wake }
                    s.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .wait
                }
                switch now {
                case .wait: break
                case .wake: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time on by `duration` and wakes every sleeper whose time has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { s -> [Sleeper] in
            s.now = s.now + duration
            let now = s.now
            let due = s.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { s.sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// The same made-up time as a date, for services that read the wall clock and wait on this
    /// one: `advance` moves both, so a deadline read from a date and slept on here agree.
    public func wall(startingAt origin: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> WallClock {
        let start = now
        return WallClock {
            let passed = (self.now - start).components
            return origin + Double(passed.seconds) + Double(passed.attoseconds) / 1e18
        }
    }

    /// The deadlines someone sleeps until now, earliest first.
    public var deadlines: [ContinuousClock.Instant] { state.withLock { $0.sleepers.values.map(\.deadline).sorted() } }

    /// Waits until someone sleeps until `deadline`: a state to wait for (a timer set by a
    /// task running elsewhere), with a limit in real time so that a bug fails instead of
    /// hanging. Returns whether it came. The limit is generous: the whole suite runs at once
    /// on two cores, and a task can wait its turn for tens of seconds there.
    public func waitForSleeper(until deadline: ContinuousClock.Instant, limit: Duration = .seconds(150)) async -> Bool {
        let giveUp = ContinuousClock.now + limit
        while ContinuousClock.now < giveUp {
            if deadlines.contains(deadline) { return true }
            // Cancelled (the test's time limit): give up at once. A `try?` here spun hot until
            // the limit, starving every other test of the two cores: see `eventually`.
            do { try await Task.sleep(for: .milliseconds(1)) } catch { return false }
        }
        return false
    }
}
