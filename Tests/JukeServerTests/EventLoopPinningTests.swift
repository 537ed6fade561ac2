import NIOCore
import NIOPosix
import Testing

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

@Suite(.timeLimit(.minutes(5))) struct EventLoopPinningTests {
    @Test func loopsTakeTheCPUsInTurn() {
        #expect(EventLoopPinning.assignment(loops: 2, cpus: [0, 1]) == [0, 1])
        #expect(EventLoopPinning.assignment(loops: 3, cpus: [2, 5]) == [2, 5, 2])
        #expect(EventLoopPinning.assignment(loops: 1, cpus: [4, 6, 7]) == [4])
        // One CPU, or none known: pinning would change nothing.
        #expect(EventLoopPinning.assignment(loops: 4, cpus: [3]) == nil)
        #expect(EventLoopPinning.assignment(loops: 2, cpus: []) == nil)
        #expect(EventLoopPinning.assignment(loops: 0, cpus: [0, 1]) == nil)
    }

    /// Each loop's thread, asked from itself, may run only on its CPU afterwards.
    @Test func eachLoopRunsOnItsOwnCPU() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let allowed = EventLoopPinning.allowedCPUs()
        let pinned = try await EventLoopPinning.pin(group)
        if allowed.count > 1 {
            let cpus = try #require(pinned)
            #expect(cpus == Array(allowed.prefix(2)))
            for (loop, cpu) in zip(group.makeIterator(), cpus) {
                #expect(try await loop.submit { EventLoopPinning.allowedCPUs() }.get() == [cpu])
            }
        } else {
            #expect(pinned == nil)
        }
        try await group.shutdownGracefully()
    }
}
