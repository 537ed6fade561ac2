import Foundation

/// Says on standard error when a step of a test's set-up or tear-down is still waiting after
/// `after`, and again when it ends, without stopping it: a full parallel run has been seen to
/// stand still past a test's time limit with every thread idle, and these lines tell which
/// step it stood in (the database's shutdown, its drop, the app's services stopping).
public func reportingIfSlow<T: Sendable>(
    _ step: String, after: Duration = .seconds(60), _ operation: @Sendable () async throws -> T
) async rethrows -> T {
    let started = ContinuousClock.now
    let watcher = Task {
        try await Task.sleep(for: after)
        FileHandle.standardError.write(Data("juke test: still waiting after \(after): \(step)\n".utf8))
    }
    defer {
        watcher.cancel()
        if ContinuousClock.now - started >= after {
            FileHandle.standardError.write(Data("juke test: ended after \(ContinuousClock.now - started): \(step)\n".utf8))
        }
    }
    return try await operation()
}
