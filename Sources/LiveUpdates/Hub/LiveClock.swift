/// The time a live hub reads and waits on, injected so that tests move it by hand: the
/// system's continuous clock in the server, a manual one in tests.
public protocol LiveClock: Sendable {
    var now: ContinuousClock.Instant { get }
    /// Returns at `deadline` or later; throws when the task is cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

/// The system's continuous clock.
public struct SystemLiveClock: LiveClock {
    public init() {}
    public var now: ContinuousClock.Instant { .now }
    public func sleep(until deadline: ContinuousClock.Instant) async throws { try await Task.sleep(until: deadline, clock: .continuous) }
}
