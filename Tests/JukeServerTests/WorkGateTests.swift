import Synchronization
import Testing

@testable import JukePlatform

/// Password hashing's gate: so many at once, a bounded line behind them, "busy" past it.
@Suite(.timeLimit(.minutes(5))) struct WorkGateTests {
    @Test func aFullGateSaysBusyAtOnceAndTheLineMovesOn() async throws {
        let gate = WorkGate(running: 1, waiting: 1)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let started = Atomic<Int>(0)
        let first = Task {
            try await gate.run {
                started.add(1, ordering: .relaxed)
                for await _ in release { break }
                return 1
            }
        }
        while started.load(ordering: .relaxed) == 0 { await Task.yield() }
        let second = Task { try await gate.run { 2 } }
        while gate.queued == 0 { await Task.yield() }
        do {
            _ = try await gate.run { 3 }
            Issue.record("a third job is refused while one runs and one waits")
        } catch let error as APIError {
            #expect(error.status == .serviceUnavailable && error.retryAfter == 1)
        }
        releaser.yield()
        #expect(try await first.value == 1)
        #expect(try await second.value == 2, "the one in line runs once the first is done")
        #expect(try await gate.run { 4 } == 4)
    }
}
