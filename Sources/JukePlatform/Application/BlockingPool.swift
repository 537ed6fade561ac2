import Foundation
import Synchronization

/// A fixed set of threads for work that blocks its thread (a parser run to its end, a
/// blocking socket), and a bounded line of work waiting for one of them: never a new thread
/// per call, so a burst of calls costs a queue, not a pile of threads. Threads are started as
/// work first needs them, up to `threads`, and then kept.
///
/// Work here must never wait for other work of the same pool (every thread could be taken by
/// work waiting for work that cannot start).
public final class BlockingPool: Sendable {
    public let threads: Int
    /// Work that may wait for a thread; more is refused at once.
    public let waiting: Int
    let name: String
    let refusal: APIError

    private struct State {
        var line: [@Sendable () -> Void] = []
        var started = 0
        /// Work accepted and not finished: running and in line.
        var pending = 0
    }

    private let state = Mutex(State())
    /// One signal per piece of work put in line: a thread takes one and runs it.
    private let ready = DispatchSemaphore(value: 0)

    public init(
        threads: Int, waiting: Int, name: String = "juke-blocking",
        refusal: APIError = .busy(retryAfter: 2)
    ) {
        self.threads = max(1, threads)
        self.waiting = max(0, waiting)
        self.name = name
        self.refusal = refusal
    }

    /// Work accepted and not finished (running and in line).
    public var pending: Int { state.withLock { $0.pending } }

    /// Runs `work` on one of the pool's threads once one is free; throws the refusal at once
    /// when every thread is taken and the line is full.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let job: @Sendable () -> Void = { continuation.resume(with: Result { try work() }) }
            let (accepted, startThread) = state.withLock { state -> (Bool, Bool) in
                guard state.pending < threads + waiting else { return (false, false) }
                state.pending += 1
                state.line.append(job)
                // Another thread only when every started one has work.
                guard state.started < threads, state.started < state.pending else { return (true, false) }
                state.started += 1
                return (true, true)
            }
            guard accepted else { return continuation.resume(throwing: refusal) }
            if startThread { startWorker() }
            ready.signal()
        }
    }

    private func startWorker() {
        let thread = Thread { [self] in
            while true {
                ready.wait()
                let job = state.withLock { state -> (@Sendable () -> Void)? in
                    state.line.isEmpty ? nil : state.line.removeFirst()
                }
                job?()
                state.withLock { $0.pending -= 1 }
            }
        }
        thread.name = name
        thread.start()
    }
}
