import Foundation

/// Work that blocks its thread (a tool run to completion, a blocking socket) done on a thread
/// of its own. On Swift's cooperative pool, a machine with two cores has two threads: one
/// blocked for seconds halves the server, two stop it, and every task waits (a test's
/// connection, seen idle for 20 s, was closed under a full test run that way).
public enum BlockingWork {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.start()
        }
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
