import Foundation
import Synchronization
import Testing

@testable import JukePlatform

/// Where uploaded documents are read: a few at once on threads of their own, a short line,
/// then 503 with Retry-After at once (issue 37: two PDF uploads at once made /health time out).
@Suite(.timeLimit(.minutes(5))) struct ReadingPoolTests {
    @Test func aFullPoolRefusesAtOnceWithRetryAfter() async throws {
        let pool = ReadingPool(running: 1, waiting: 1)
        let release = Atomic<Bool>(false)
        let started = Atomic<Int>(0)
        // The reader blocks its thread, as a parser does, until released.
        let first = Task {
            try await pool.read { () -> Int in
                started.add(1, ordering: .relaxed)
                while !release.load(ordering: .relaxed) { usleep(1_000) }
                return 1
            }
        }
        while started.load(ordering: .relaxed) == 0 { await Task.yield() }
        let second = Task { try await pool.read { 2 } }
        while pool.queued == 0 { await Task.yield() }
        do {
            _ = try await pool.read { 3 }
            Issue.record("a third reading is refused while one runs and one waits")
        } catch let error as APIError {
            #expect(error.status == .serviceUnavailable && error.retryAfter == 5 && error.code == "busy")
        }
        release.store(true, ordering: .relaxed)
        #expect(try await first.value == 1)
        #expect(try await second.value == 2, "the one in line is read once the first is done")
    }

    /// A reader blocks a thread of its own, never one of Swift's cooperative pool: with every
    /// place of the pool blocked, other tasks still run.
    @Test func readersBlockNoTaskOfTheServer() async throws {
        let pool = ReadingPool(running: 4, waiting: 0)
        let gate = Gate()
        let readers = (0..<4).map { _ in
            Task {
                try await pool.read { () -> Bool in
                    gate.started.add(1, ordering: .relaxed)
                    while !gate.released.load(ordering: .relaxed) { usleep(1_000) }
                    return true
                }
            }
        }
        while gate.started.load(ordering: .relaxed) < 4 { await Task.yield() }
        // More blocked readers than this machine has cores, and a task still runs to its end.
        let other = Task.detached { (0..<1_000).reduce(0, +) }
        #expect(await other.value == 499_500)
        gate.released.store(true, ordering: .relaxed)
        for reader in readers { #expect(try await reader.value) }
    }

    /// What the blocked readers of a test wait on.
    final class Gate: Sendable {
        let started = Atomic<Int>(0)
        let released = Atomic<Bool>(false)
    }

    @Test func whatAReaderThrowsReachesTheCaller() async throws {
        struct Damaged: Error {}
        let pool = ReadingPool()
        await #expect(throws: Damaged.self) { try await pool.read { () throws -> Int in throw Damaged() } }
    }
}
