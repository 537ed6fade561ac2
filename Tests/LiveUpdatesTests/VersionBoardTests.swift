import Foundation
import JukeTestSupport
import LiveUpdates
import Testing

/// Watchers of a subject hear each new version, the end, and a heartbeat on the hub's clock.
@Suite(.timeLimit(.minutes(5))) struct VersionBoardTests {
    @Test func watchersHearTheirSubjectsVersionsAndItsEnd() async {
        let board = VersionBoard<Int>(heartbeat: .seconds(3600), clock: ManualLiveClock())
        let (_, one) = await board.subscribe(1)
        let (_, other) = await board.subscribe(2)
        await board.changed(1, version: 7)
        await board.deleted(1)
        var heard: [VersionBoard<Int>.Signal] = []
        for await signal in one { heard.append(signal) }  // the stream ends with the subject
        #expect(heard == [.changed(version: 7), .deleted])
        #expect(await board.watcherCount(1) == 0)
        #expect(await board.watcherCount(2) == 1)
        _ = other
    }

    @Test func anIdleWatcherGetsAHeartbeatEachInterval() async {
        let clock = ManualLiveClock()
        let board = VersionBoard<Int>(heartbeat: .seconds(15), clock: clock)
        let (token, signals) = await board.subscribe(1)
        var iterator = signals.makeAsyncIterator()
        for _ in 0..<3 {
            #expect(await clock.waitForSleeper(until: clock.now + .seconds(15)))
            clock.advance(by: .seconds(15))
            #expect(await iterator.next() == .heartbeat)
        }
        await board.unsubscribe(1, token)
        #expect(await iterator.next() == nil)
    }
}
