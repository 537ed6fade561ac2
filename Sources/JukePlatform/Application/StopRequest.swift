import Synchronization

/// A request to stop blocking work early, made by the task that waits for it (cancelled when
/// the server shuts down) and read by the work on its own thread: the work checks it between
/// its steps, and a tool it is running (espeak-ng, ffmpeg) is ended at once. Without it a
/// server stopped while it makes its demo files waited a minute for them.
public final class StopRequest: Sendable {
    private struct State {
        var requested = false
        var handlers: [Int: @Sendable () -> Void] = [:]
        var next = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var isRequested: Bool { state.withLock { $0.requested } }

    /// Asks the work to stop; runs the handlers of what it is running now.
    public func request() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.requested else { return [] }
            state.requested = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Throws `CancellationError` once a stop was asked for: a step not worth starting.
    public func check() throws(CancellationError) {
        if isRequested { throw CancellationError() }
    }

    /// Runs `body` with `onStop` called if a stop is asked for meanwhile (at once when it
    /// already was), so a step that blocks can be ended from outside.
    public func whileRunning<T, E: Error>(onStop: @escaping @Sendable () -> Void, _ body: () throws(E) -> T) throws(E) -> T {
        let key = state.withLock { state -> Int? in
            guard !state.requested else { return nil }
            state.next += 1
            state.handlers[state.next] = onStop
            return state.next
        }
        guard let key else {
            onStop()
            return try body()
        }
        defer { _ = state.withLock { $0.handlers.removeValue(forKey: key) } }
        return try body()
    }
}
