import Synchronization

/// How many PostgreSQL test databases exist at once in one test process. A parallel run
/// starts every test at once, and each database's pool opens connections for its app (its
/// relay listeners hold three) and its queries: hundreds of tests passed the server's
/// `max_connections` (600), and a pool refused with "too many clients" was seen to wait for a
/// connection for good, the test standing still past its time limit with no session open.
/// Waiting here for a slot keeps the run under the limit (24 databases, each pool at most 16
/// connections and its admin pool's one: 408 of 600); a waiting test holds nothing.
public final class PostgresTestSlots: Sendable {
    public static let shared = PostgresTestSlots(limit: 24)

    private struct State {
        var free: Int
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    public init(limit: Int) { state = Mutex(State(free: limit)) }

    /// Waits for a slot; throws `CancellationError` when the waiting test is cancelled.
    public func acquire() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Decided under the lock, so that only one of this and the cancellation
                // handler (which resumes only what it takes out of the line) resumes.
                enum Decision { case granted, cancelled, waiting }
                let decision = state.withLock { state -> Decision in
                    if Task.isCancelled { return .cancelled }
                    if state.free > 0 {
                        state.free -= 1
                        return .granted
                    }
                    state.waiting.append((id, continuation))
                    return .waiting
                }
                switch decision {
                case .granted: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// How many tests wait for a slot (for the slots' own tests).
    public var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Gives a slot back: to the longest waiting test, or to the pool.
    public func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if state.waiting.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume()
    }
}
