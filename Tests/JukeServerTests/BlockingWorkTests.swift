import Foundation
import Synchronization
import Testing

@testable import JukePlatform

/// Work that blocks a thread runs on a fixed pool of threads, never one new thread per call
/// (issue 49: a burst of calls made as many threads).
@Suite(.timeLimit(.minutes(5))) struct BlockingWorkTests {
    final class Counts: Sendable {
        let alive = Atomic<Int>(0)
        let most = Atomic<Int>(0)
    }

    @Test func neverMoreAtOnceThanThePoolsThreads() async throws {
        let threads = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let counts = Counts()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<(threads * 4) {
                group.addTask {
                    try await BlockingWork.run {
                        let now = counts.alive.add(1, ordering: .relaxed).newValue
                        counts.most.max(now, ordering: .relaxed)
                        usleep(30_000)
                        counts.alive.subtract(1, ordering: .relaxed)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(counts.most.load(ordering: .relaxed) <= threads)
        #expect(counts.most.load(ordering: .relaxed) >= 1)
    }

    @Test func aPoolPastItsLineRefusesAtOnce() async throws {
        let pool = BlockingPool(threads: 1, waiting: 1)
        let release = Atomic<Bool>(false)
        let started = Atomic<Int>(0)
        let first = Task {
            try await pool.run { () -> Int in
                started.add(1, ordering: .relaxed)
                while !release.load(ordering: .relaxed) { usleep(1_000) }
                return 1
            }
        }
        while started.load(ordering: .relaxed) == 0 { await Task.yield() }
        let second = Task { try await pool.run { 2 } }
        while pool.pending < 2 { await Task.yield() }
        await #expect(throws: APIError.self) { try await pool.run { 3 } }
        release.store(true, ordering: .relaxed)
        #expect(try await first.value == 1)
        #expect(try await second.value == 2)
    }
}
