import NIOCore
import Synchronization

/// One listener's queue: the relay pushes chunks in without waiting; the listener's response
/// takes them out as fast as its connection allows. Closing it ends the response; a listener
/// dropped for falling behind also has its connection closed, since its response may be
/// stuck in a write that a stalled phone never lets finish.
final class ListenerOutlet: Sendable {
    let id: Int
    private let closeConnection: @Sendable () -> Void

    private struct State {
        var pending: [ByteBuffer] = []
        var waiter: CheckedContinuation<[ByteBuffer]?, Never>?
        var closed = false
    }

    private let state = Mutex(State())

    init(id: Int, closeConnection: @escaping @Sendable () -> Void) {
        self.id = id
        self.closeConnection = closeConnection
    }

    func push(_ chunks: [ByteBuffer]) {
        let waiter = state.withLock { state -> CheckedContinuation<[ByteBuffer]?, Never>? in
            guard !state.closed else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending += chunks
            return nil
        }
        waiter?.resume(returning: chunks)
    }

    /// Ends the response once what is queued has been written.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<[ByteBuffer]?, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Fell behind: nothing more is written, and the connection is closed.
    func drop() {
        let waiter = state.withLock { state -> CheckedContinuation<[ByteBuffer]?, Never>? in
            state.closed = true
            state.pending = []
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
        closeConnection()
    }

    /// The next chunks to write, waiting for them; nil when the listener is finished.
    func next() async -> [ByteBuffer]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> [ByteBuffer]?? in
                    if !state.pending.isEmpty {
                        defer { state.pending = [] }
                        return .some(state.pending)
                    }
                    if state.closed || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }
}
