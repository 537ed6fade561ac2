import Foundation
import Synchronization
import Testing

/// Runs a test on a thread of its own instead of Swift's cooperative pool.
///
/// Swift Testing runs every test on the cooperative pool, which has one thread per core: two on
/// the machines the tests run on. A test that computes for seconds without awaiting (an
/// exhaustive search, a reader over a large file) holds one of them for that long, and two
/// such tests at once stop everything else in the run: the live servers other suites start,
/// and their clients' deadlines, wait behind them (an S3 upload once found no thread to read
/// its file for 30 s and timed out). On a thread of its own such a test still shares the
/// cores, but the operating system shares them fairly, so the rest of the run goes on.
///
/// Applied to a suite, it covers each of its tests; each case of a parameterized test gets a
/// thread of its own.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let executor = ThreadExecutor(name: "juke-test")
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) {
            try await function()
        }
    }
}

extension OwnThreadTrait {
    /// Whether the caller runs on a test's own thread: a test that needs one checks it, so
    /// that the trait cannot silently stop working.
    public static var isCurrent: Bool { Thread.current.threadDictionary[ThreadExecutor.marker] != nil }
}

extension Trait where Self == OwnThreadTrait {
    /// For a test that computes for seconds without awaiting: see `OwnThreadTrait`.
    public static var ownThread: Self { Self() }
}

/// A task executor with one thread, started for it and ended by `finish()`: a plain thread,
/// not one of libdispatch's, whose pools the cooperative one shares.
final class ThreadExecutor: TaskExecutor {
    static let marker = "juke.test.own-thread"

    /// The jobs waiting, in order; nil asks the thread to end once those before it ran.
    private let jobs = Mutex<[UnownedJob?]>([])
    private let waiting = DispatchSemaphore(value: 0)

    init(name: String) {
        let thread = Thread { [self] in
            Thread.current.threadDictionary[Self.marker] = true
            while true {
                waiting.wait()
                guard let job = jobs.withLock({ $0.removeFirst() }) else { return }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }

    /// Ends the thread once the jobs already given have run.
    func finish() {
        jobs.withLock { $0.append(nil) }
        waiting.signal()
    }
}
