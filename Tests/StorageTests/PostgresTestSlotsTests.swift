import JukeTestSupport
import Synchronization
import Testing

/// The slots that keep a parallel run's PostgreSQL databases under the server's connection
/// limit: no more than the limit at once, the next waiting test served first, and a test
/// cancelled while it waits leaves without a slot.
@Suite(.timeLimit(.minutes(1))) struct PostgresTestSlotsTests {
    @Test func noMoreThanTheLimitAtOnceAndTheLongestWaitingIsNext() async throws {
        let slots = PostgresTestSlots(limit: 2)
        try await slots.acquire()
        try await slots.acquire()
        let order = Order()
        let first = Task {
            try await slots.acquire()
            order.append(1)
        }
        // The first is in line before the second asks.
        while await !Self.isWaiting(first, slots) {}
        let second = Task {
            try await slots.acquire()
            order.append(2)
        }
        #expect(order.all.isEmpty, "both wait while the two slots are taken")
        slots.release()
        try await first.value
        #expect(order.all == [1])
        slots.release()
        try await second.value
        #expect(order.all == [1, 2])
    }

    @Test func aTestCancelledWhileWaitingLeavesWithoutASlot() async throws {
        let slots = PostgresTestSlots(limit: 1)
        try await slots.acquire()
        let waiting = Task { try await slots.acquire() }
        while await !Self.isWaiting(waiting, slots) {}
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        // Its place in line is gone: the slot given back goes to the pool, and is taken at once.
        slots.release()
        try await slots.acquire()
    }

    final class Order: Sendable {
        private let served = Mutex<[Int]>([])
        func append(_ value: Int) { served.withLock { $0.append(value) } }
        var all: [Int] { served.withLock { $0 } }
    }

    /// Whether `task` has got in line (it has not been granted a slot and is not cancelled).
    static func isWaiting(_ task: Task<Void, any Error>, _ slots: PostgresTestSlots) async -> Bool {
        await Task.yield()
        return slots.waitingCount > 0
    }
}
