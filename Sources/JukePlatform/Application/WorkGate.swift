import Synchronization

/// At most `running` jobs at once and `waiting` in line; past that, `busy` at once instead of
/// a queue that grows without end. (Password hashing: a few hundred milliseconds of CPU each;
/// reading an uploaded document: up to seconds; an outside program: `ToolSlots`.)
final class WorkGate: Sendable {
    let running: Int
    let waiting: Int
    /// What a job past the line is told (a 503 with Retry-After).
    let refusal: APIError

    private struct State {
        var active = 0
        var queue: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    init(running: Int, waiting: Int, refusal: APIError = .busy(retryAfter: 1)) {
        self.running = max(1, running)
        self.waiting = max(0, waiting)
        self.refusal = refusal
    }

    /// Jobs waiting in line now.
    var queued: Int { state.withLock { $0.queue.count } }

    /// Jobs running now.
    var active: Int { state.withLock { $0.active } }

    func run<T: Sendable>(patient: Bool = false, _ job: @Sendable () async throws -> T) async throws -> T {
        try await enter(patient: patient)
        defer { leave() }
        return try await job()
    }

    /// Takes a place: at once, after waiting in line, or refused when the line is full. A
    /// `patient` job (the server's own few, never a request's) joins the line however long it is.
    /// Every place taken is given back with `leave`.
    func enter(patient: Bool = false) async throws {
        enum Entry {
            case now
            case wait
            case refused
        }
        // Decided under the lock: run now, queue, or refuse.
        let decision = state.withLock { state -> Entry in
            if state.active < running {
                state.active += 1
                return .now
            }
            return patient || state.queue.count < waiting ? .wait : .refused
        }
        switch decision {
        case .now: return
        case .refused: throw refusal
        case .wait:
            await withCheckedContinuation { continuation in
                let startNow = state.withLock { state -> Bool in
                    // A place may have freed up between the two locks.
                    if state.active < running {
                        state.active += 1
                        return true
                    }
                    state.queue.append(continuation)
                    return false
                }
                if startNow { continuation.resume() }
            }
        }
    }

    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            // The place passes straight to the next in line (active stays the same).
            if !state.queue.isEmpty { return state.queue.removeFirst() }
            state.active -= 1
            return nil
        }
        next?.resume()
    }
}
