import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import JukePlatform

/// Work that outlives its request runs inside `BackgroundWork`, a service of the server's
/// group: shutdown cancels it and waits for it, and tests wait for it with `idle()`.
@Suite(.timeLimit(.minutes(2))) struct BackgroundWorkTests {
    static let logger = Logger(label: "test.background")

    /// Runs `work` in a service group of its own and returns the group and its run.
    static func running(_ work: BackgroundWork) -> (group: ServiceGroup, run: Task<Void, any Error>) {
        let group = ServiceGroup(configuration: .init(services: [work], gracefulShutdownSignals: [], cancellationSignals: [], logger: logger))
        return (group, Task { try await group.run() })
    }

    @Test func workRunsAndIdleReturnsWhenItEnds() async throws {
        let work = BackgroundWork(logger: Self.logger)
        let (group, run) = Self.running(work)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let done = Shared(0)
        work.start("waits for the test") {
            for await _ in release { break }
            done.change { $0 += 1 }
        }
        work.start("at once") { done.change { $0 += 1 } }
        let idle = Task {
            await work.idle()
            return done.value
        }
        releaser.yield()
        #expect(await idle.value == 2, "idle returns only once both pieces have ended")
        await group.triggerGracefulShutdown()
        try await run.value
    }

    @Test func workStartedBeforeRunIsNotLost() async throws {
        let work = BackgroundWork(logger: Self.logger)
        let done = Shared(false)
        let job = work.start("before run") { done.set(true) }
        #expect(!job.hasEnded)
        let (group, run) = Self.running(work)
        await work.idle()
        #expect(done.value)
        #expect(job.hasEnded)
        await group.triggerGracefulShutdown()
        try await run.value
    }

    @Test func shutdownCancelsRunningWorkAndWaitsForItsEnd() async throws {
        let work = BackgroundWork(logger: Self.logger)
        let (group, run) = Self.running(work)
        let (started, starter) = AsyncStream.makeStream(of: Void.self)
        let sawCancellation = Shared(false)
        let cleanedUp = Shared(false)
        work.start("forever") {
            starter.yield()
            // Sleeps until cancelled (a day is forever for a test).
            try? await Task.sleep(for: .seconds(86_400))
            sawCancellation.set(Task.isCancelled)
            // Some clean-up after the cancellation, which the run must wait for.
            await Task.yield()
            cleanedUp.set(true)
        }
        for await _ in started { break }
        await group.triggerGracefulShutdown()
        try await run.value
        #expect(sawCancellation.value, "the work sees the cancellation")
        #expect(cleanedUp.value, "the run returns only after the work ended")
    }

    @Test func workAfterShutdownIsRefused() async throws {
        let work = BackgroundWork(logger: Self.logger)
        let (group, run) = Self.running(work)
        await group.triggerGracefulShutdown()
        try await run.value
        let ran = Shared(false)
        let job = work.start("too late") { ran.set(true) }
        #expect(job.hasEnded, "refused at once")
        await work.idle()
        #expect(!ran.value)
    }

    @Test func oneJobIsCancelledAlone() async throws {
        let work = BackgroundWork(logger: Self.logger)
        let (group, run) = Self.running(work)
        let (started, starter) = AsyncStream.makeStream(of: Void.self)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let cancelled = Shared(false)
        let other = Shared(false)
        let job = work.start("removed") {
            starter.yield()
            try? await Task.sleep(for: .seconds(86_400))
            cancelled.set(Task.isCancelled)
        }
        work.start("kept") {
            for await _ in release { break }
            other.set(!Task.isCancelled)
        }
        for await _ in started { break }
        job.cancel()
        await job.wait()
        #expect(cancelled.value)
        releaser.yield()
        await work.idle()
        #expect(other.value, "the other work goes on uncancelled")
        await group.triggerGracefulShutdown()
        try await run.value
    }
}

/// A value the work and the test both see.
private final class Shared<Value: Sendable>: Sendable {
    private let state: Mutex<Value>
    init(_ value: Value) { state = Mutex(value) }
    var value: Value { state.withLock { $0 } }
    func set(_ value: Value) { state.withLock { $0 = value } }
    func change(_ body: (inout Value) -> Void) { state.withLock { body(&$0) } }
}
