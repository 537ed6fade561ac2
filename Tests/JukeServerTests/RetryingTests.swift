import JukeCore
import Synchronization
import Testing

/// Writes that must not be lost to a moment's outage are tried again, waiting longer each
/// time, and give up with the last failure.
@Suite(.timeLimit(.minutes(1))) struct RetryingTests {
    struct Outage: Error, Equatable { let attempt: Int }

    final class Log: Sendable {
        let waits = Mutex<[Duration]>([])
        let failures = Mutex<[Int]>([])
    }

    static func retrying(_ log: Log, delays: [Duration]) -> Retrying {
        Retrying(delays: delays) { wait in log.waits.withLock { $0.append(wait) } }
    }

    @Test func aWriteThatFailsTwiceIsMadeOnTheThirdAttempt() async throws {
        let log = Log()
        let attempts = Mutex(0)
        let value = try await Self.retrying(log, delays: [.seconds(1), .seconds(2), .seconds(4)]).run {
            let attempt = attempts.withLock {
                $0 += 1; return $0
            }
            if attempt < 3 { throw Outage(attempt: attempt) }
            return "saved"
        } failed: { _, attempt in
            log.failures.withLock { $0.append(attempt) }
        }
        #expect(value == "saved")
        #expect(log.failures.withLock { $0 } == [1, 2])
        #expect(log.waits.withLock { $0 } == [.seconds(1), .seconds(2)])
    }

    @Test func theLastFailureIsThrownWhenTheDelaysRunOut() async {
        let log = Log()
        let attempts = Mutex(0)
        await #expect(throws: Outage(attempt: 3)) {
            try await Self.retrying(log, delays: [.seconds(1), .seconds(1)]).run {
                let attempt = attempts.withLock {
                    $0 += 1; return $0
                }
                throw Outage(attempt: attempt)
            }
        }
        #expect(attempts.withLock { $0 } == 3)
    }

    @Test func aCancelledWaitEndsWithTheOperationsFailure() async {
        let retrying = Retrying(delays: [.seconds(1)]) { _ in throw CancellationError() }
        await #expect(throws: Outage(attempt: 1)) {
            try await retrying.run { throw Outage(attempt: 1) }
        }
    }

    @Test func backingOffDoublesUpToItsCap() {
        #expect(Retrying.backingOff(attempts: 1).delays.isEmpty)
        #expect(Retrying.backingOff(attempts: 7, cap: .seconds(10)).delays == [1, 2, 4, 8, 10, 10].map { Duration.seconds($0) })
    }
}
