import Logging
import ServiceLifecycle
import Synchronization

/// Work that outlives the request or event that started it (an article spoken, an episode
/// downloaded, a library scanned, trivia written) runs here, as a child of this service's
/// `run()` in the server's service group, never as a task of its own: shutdown reaches it,
/// a failure is logged, and tests can wait for it (`idle()`).
///
/// On graceful shutdown it takes no more work and cancels what runs, then waits for it to
/// end before `run()` returns (so the database, stopped after it, is still open meanwhile).
/// Cancelled rather than waited for: the work is long (a 1 GB download, minutes of speech,
/// an AI's answer) and all of it is picked up again later (downloads resume from their part
/// files at the next start, speech is made again when asked, missing trivia is written again,
/// feeds are refreshed on schedule), and a server told to stop must stop within seconds.
///
/// Work started before `run()` begins waits for it; work started once shutdown began is
/// refused with a log line.
public final class BackgroundWork: Service, Sendable {
    private struct Entry: Sendable {
        let name: String
        let work: @Sendable () async throws -> Void
        let job: BackgroundJob
    }

    private struct State {
        var accepting = true
        /// Accepted and not yet ended (waiting for `run()` or running).
        var unfinished = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let entries: AsyncStream<Entry>
    private let feed: AsyncStream<Entry>.Continuation
    private let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
        (entries, feed) = AsyncStream.makeStream(of: Entry.self)
    }

    /// Runs `work` in the background under `name` (for the logs). The job it returns stops
    /// that work alone (a download removed) or waits for it.
    @discardableResult
    public func start(_ name: String, _ work: @escaping @Sendable () async throws -> Void) -> BackgroundJob {
        let job = BackgroundJob()
        // Accepted and queued under one lock, so a shutdown between the two cannot lose it.
        let accepted = state.withLock { state -> Bool in
            guard state.accepting else { return false }
            state.unfinished += 1
            feed.yield(Entry(name: name, work: work, job: job))
            return true
        }
        if !accepted {
            logger.notice("background work refused: the server is stopping", metadata: ["work": "\(name)"])
            job.ended()
        }
        return job
    }

    /// Returns once no work is waiting or running (tests; work started meanwhile is waited for too).
    public func idle() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                guard state.unfinished > 0 else { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    public func run() async {
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                // Ends when shutdown closes the feed, or when this task is cancelled.
                for await entry in entries {
                    group.addTask { await self.perform(entry) }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.close()
        }
        // Cancelled rather than shut down: refuse what comes later all the same.
        close()
    }

    private func close() {
        state.withLock { state in
            state.accepting = false
            feed.finish()
        }
    }

    private func perform(_ entry: Entry) async {
        defer {
            entry.job.ended()
            finishedOne()
        }
        // Queued before shutdown but reached after it: not begun at all.
        if state.withLock({ !$0.accepting }) || Task.isCancelled {
            logger.info("background work not started: the server is stopping", metadata: ["work": "\(entry.name)"])
            return
        }
        let logger = self.logger
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await entry.work()
                } catch is CancellationError where Task.isCancelled {
                    // Stopped on purpose (shutdown, or its job cancelled).
                } catch {
                    logger.error("background work failed", metadata: ["work": "\(entry.name)", "error": "\(error)"])
                }
            }
            // Waits for `BackgroundJob.cancel()`; cancelled itself once the work ends.
            group.addTask { await entry.job.stopRequested() }
            _ = await group.next()
            group.cancelAll()
        }
    }

    private func finishedOne() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.unfinished -= 1
            guard state.unfinished == 0 else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// One piece of background work: cancel it, or wait for it to end.
public final class BackgroundJob: Sendable {
    private struct State {
        var stop = false
        var stopWaiter: CheckedContinuation<Void, Never>?
        var ended = false
        var endWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    init() {}

    /// Cancels the work (it sees `Task.isCancelled`); returns at once.
    public func cancel() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.stop = true
            defer { state.stopWaiter = nil }
            return state.stopWaiter
        }
        waiter?.resume()
    }

    /// Returns once the work has ended (or was refused, or never begun because of shutdown).
    public func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                guard !state.ended else { return true }
                state.endWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    public var hasEnded: Bool { state.withLock { $0.ended } }

    func ended() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.ended = true
            defer { state.endWaiters = [] }
            return state.endWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when `cancel()` is called, or when the waiting task is cancelled.
    func stopRequested() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    guard !state.stop else { return true }
                    state.stopWaiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            cancel()
        }
    }
}
