/// Runs an operation again after a failure, waiting longer each time: for writes that must
/// not be lost to a moment's outage (a dropped database connection, a failover), where giving
/// up at once would leave a record wrong for good.
public struct Retrying: Sendable {
    /// The waits before the second, third... attempt: one attempt more than there are delays.
    public let delays: [Duration]
    let sleep: @Sendable (Duration) async throws -> Void

    /// `sleep` is injected so tests need not wait; it throws when the task is cancelled,
    /// which ends the retrying with the last failure (a server stopping does not wait).
    public init(delays: [Duration], sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.delays = delays
        self.sleep = sleep
    }

    /// Waits of 1 s, 2 s, 4 s... up to `cap`, `attempts` attempts in all.
    public static func backingOff(attempts: Int, cap: Duration = .seconds(30)) -> Retrying {
        Retrying(delays: (0..<max(0, attempts - 1)).map { min(.seconds(1 << min($0, 20)), cap) })
    }

    /// The operation's result, or its last failure once the delays ran out (or the wait was
    /// cancelled). `failed` hears every failure with its attempt's number (1 for the first),
    /// to log it.
    public func run<T>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> T, failed: (_ error: any Error, _ attempt: Int) -> Void = { _, _ in }
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await operation()
            } catch let failure {
                failed(failure, attempt)
                guard attempt <= delays.count else { throw failure }
                do { try await sleep(delays[attempt - 1]) } catch { throw failure }
                attempt += 1
            }
        }
    }
}
