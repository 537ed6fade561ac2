import Foundation

/// Where what people bring in is read: web pages, ePubs, PDFs, feeds, subscription lists and
/// workouts. Each reader keeps to its own budgets (bytes, depth, counts); this keeps the
/// server's share of them bounded too:
/// - never on Swift's cooperative pool (two threads on a two-core machine: two slow documents
///   would stop every other request), but on threads of its own (a `BlockingPool` of
///   `running` threads, so a reader never waits behind other blocking work), at a lower
///   priority than the server's, so `/health`, sign-in and playback take the core when they wake;
/// - a few at once (`running`), a short line behind them (`waiting`), then 503 with
///   Retry-After at once, so memory is bounded by `running` readers' budgets, whatever arrives.
public final class ReadingPool: Sendable {
    let gate: WorkGate
    let threads: BlockingPool
    public var running: Int { gate.running }

    public init(running: Int = 2, waiting: Int = 8) {
        gate = WorkGate(
            running: running, waiting: waiting,
            refusal: APIError(
                status: .serviceUnavailable, code: "busy",
                message: "Juke is reading other files just now; try again in a few seconds.", retryAfter: 5))
        // The gate lets no more than `running` in: the threads' own line never fills.
        threads = BlockingPool(threads: max(1, running), waiting: max(1, running), name: "juke-reading")
    }

    /// Jobs waiting in line now.
    public var queued: Int { gate.queued }

    /// Runs `read` on a reading thread once a place is free; throws the 503 refusal when the
    /// line is full.
    public func read<T: Sendable>(_ read: @escaping @Sendable () throws -> T) async throws -> T {
        try await gate.run {
            try await threads.run {
                Self.lowerPriority()
                return try read()
            }
        }
    }

    /// Nice 10 for this thread alone: Linux keeps a nice value per thread, and `who` 0 names the
    /// calling thread (setpriority(2), "Bugs"), so the server's threads, at 0, get about ten
    /// times its share of a busy core.
    static func lowerPriority() {
        #if os(Linux)
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }
}
