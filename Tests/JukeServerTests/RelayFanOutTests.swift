import Foundation
import MediaFormats
import Testing

@testable import DualPlayerServer

/// The relay's sharing rules as a pure state machine: one station connection for every
/// listener, a stalled listener dropped at its backlog without touching the others, what a
/// newcomer hears first, and a station let go only after the grace period.
@Suite(.timeLimit(.minutes(5))) struct RelayFanOutTests {
    typealias FanOut = RelayFanOut<String>

    func sends(_ actions: [FanOut.Action]) -> [Int: [String]] {
        var out: [Int: [String]] = [:]
        for case .send(let listener, let chunks) in actions { out[listener, default: []] += chunks }
        return out
    }

    @Test func oneStationForEveryoneOpenedOnceAndLetGoAfterTheGrace() throws {
        var fanOut = FanOut(limits: .init(backlogBytes: 100, burstBytes: 10, maximumListeners: 3))
        let opened = fanOut.join(1)
        let first = try #require(opened)
        #expect(first.contains { if case .openStation = $0 { true } else { false } })
        let joined = fanOut.join(2)
        let second = try #require(joined)
        #expect(!second.contains { if case .openStation = $0 { true } else { false } }, "the second listener shares the connection")
        let twice = fanOut.join(2)
        #expect(twice == nil, "a listener joins once")
        _ = fanOut.join(3)
        let fourth = fanOut.join(4)
        #expect(fourth == nil, "full")
        _ = fanOut.leave(1)
        _ = fanOut.leave(2)
        let last = fanOut.leave(3)
        guard case .checkIdleLater(let generation)? = last.first else { Issue.record("the last leaving schedules a check"); return }
        // Someone comes back within the grace: the check is stale and the station stays.
        _ = fanOut.join(5)
        #expect(fanOut.idleCheck(generation: generation).isEmpty && fanOut.stationOpen)
        guard case .checkIdleLater(let again)? = fanOut.leave(5).first else { Issue.record("a check again"); return }
        guard case .closeStation? = fanOut.idleCheck(generation: again).first else { Issue.record("nobody came back: let go"); return }
        #expect(!fanOut.stationOpen)
    }

    @Test func aStalledListenerIsDroppedAtItsBacklogAndNobodyElseNotices() throws {
        var fanOut = FanOut(limits: .init(backlogBytes: 30, burstBytes: 10, maximumListeners: 10))
        _ = fanOut.join(1)
        _ = fanOut.join(2)
        var dropped: [Int] = []
        for index in 0..<10 {
            let actions = fanOut.received("chunk\(index)", size: 10)
            for case .drop(let listener) in actions { dropped.append(listener) }
            #expect(sends(actions)[1] == ["chunk\(index)"], "the reading listener gets every chunk")
            fanOut.wrote(1, size: 10)  // listener 1 keeps up; listener 2 never writes
        }
        #expect(dropped == [2], "dropped once, when its backlog would pass 30 bytes")
        #expect(fanOut.listenerCount == 1 && fanOut.backlogs[1] == 0)
    }

    @Test func aNewcomerHearsTheHeadersThenTheBurst() throws {
        var fanOut = FanOut(limits: .init(backlogBytes: 1000, burstBytes: 25, maximumListeners: 10))
        _ = fanOut.join(1)
        _ = fanOut.received("head-a", size: 10, role: .firstHeader)
        _ = fanOut.received("head-b", size: 10, role: .header)
        for index in 0..<5 { _ = fanOut.received("audio\(index)", size: 10) }
        let joined = fanOut.join(2)
        let intro = try #require(joined)
        #expect(sends(intro)[2] == ["head-a", "head-b", "audio3", "audio4"], "headers, then the last 25 bytes' whole chunks")
        #expect(fanOut.backlogs[2] == 40)
        // A chained stream: new headers replace the old, and the burst starts again.
        _ = fanOut.received("head-c", size: 10, role: .firstHeader)
        _ = fanOut.received("audio5", size: 10)
        let third = fanOut.join(3)
        #expect(sends(try #require(third))[3] == ["head-c", "audio5"])
    }

    @Test func theStationEndingEndsEveryone() throws {
        var fanOut = FanOut()
        _ = fanOut.join(1)
        _ = fanOut.join(2)
        let ends = fanOut.stationEnded().compactMap { if case .end(let listener) = $0 { listener } else { nil } }
        #expect(ends == [1, 2] && fanOut.listenerCount == 0 && !fanOut.stationOpen)
    }

    @Test func oggIsCutIntoPagesMarkedAsHeadersOrAudio() throws {
        let file = [UInt8](try Data(contentsOf: Self.mediaFixture("tagged.ogg")))
        var chunker = RelayChunker(kind: .ogg)
        var roles: [RelayRole] = []
        var offset = 0
        while offset < file.count {
            let end = min(file.count, offset + 1000)
            roles += chunker.chunks(Array(file[offset..<end])).map(\.role)
            offset = end
        }
        #expect(roles.first == .firstHeader && roles.contains(.audio))
        #expect(roles.drop { $0 != .audio }.allSatisfy { $0 == .audio }, "headers come first, then audio only")
        var mpeg = RelayChunker(kind: .mpeg)
        let passed = mpeg.chunks([1, 2, 3]).map(\.bytes)
        #expect(passed == [[1, 2, 3]], "MPEG passes as it comes")
    }

    /// MediaFormats' fixtures, from this package's tests folder.
    static func mediaFixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MediaFormatsTests/Fixtures/\(name)")
    }
}
