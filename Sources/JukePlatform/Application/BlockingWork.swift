import Foundation

/// Work that blocks its thread (a tool run to completion, a blocking socket) done on a thread
/// of the shared `BlockingPool`, not Swift's cooperative pool: a machine with two cores has
/// two cooperative threads, one blocked for seconds halves the server, two stop it, and every
/// task waits (a test's connection, seen idle for 20 s, was closed under a full test run
/// that way). The pool has a thread per core (at least two) and a bounded line: a burst of
/// calls waits its turn, or past the line is told the server is busy, and never starts a
/// thread per call.
public enum BlockingWork {
    public static let shared = BlockingPool(threads: max(2, ProcessInfo.processInfo.activeProcessorCount), waiting: 64)

    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await shared.run(work)
    }

    /// `run`, with a `StopRequest` the work reads between its steps: cancelling the waiting
    /// task (a service told the server is shutting down) asks it to stop, and it throws
    /// `CancellationError` soon after instead of running on for a minute.
    public static func run<T: Sendable>(stoppable work: @escaping @Sendable (StopRequest) throws -> T) async throws -> T {
        let stop = StopRequest()
        return try await withTaskCancellationHandler {
            try await run { try work(stop) }
        } onCancel: {
            stop.request()
        }
    }
}
