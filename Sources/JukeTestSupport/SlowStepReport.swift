import Foundation

/// Says on standard error when a step of a test's set-up or tear-down is still waiting after
/// `after`, and again when it ends, without stopping it: a full parallel run has been seen to
/// stand still past a test's time limit with every thread idle, and these lines tell which
/// step it stood in (the database's shutdown, its drop, the app's services stopping).
public func reportingIfSlow(_ step: String, after: Duration = .seconds(60), _ operation: @escaping @Sendable () async -> Void) async {
    let started = ContinuousClock.now
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            await operation()
            return true
        }
        group.addTask {
            try? await Task.sleep(for: after)
            if !Task.isCancelled { FileHandle.standardError.write(Data("juke test: still waiting after \(after): \(step)\n".utf8)) }
            return false
        }
        // The step's end (true) ends the watch; the watch's line (false) waits on for it.
        while let ended = await group.next() {
            if ended {
                group.cancelAll()
                break
            }
        }
    }
    if ContinuousClock.now - started >= after {
        FileHandle.standardError.write(Data("juke test: ended after \(ContinuousClock.now - started): \(step)\n".utf8))
    }
}
