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
}
