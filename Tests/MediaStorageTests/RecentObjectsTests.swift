import Foundation
import JukeCore
import Synchronization
import Testing

@testable import MediaStorage

/// The bucket's memo of what HEAD said: kept for its lifetime, forgotten on delete, bounded.
@Suite(.timeLimit(.minutes(1)))
struct RecentObjectsTests {
    final class Hands: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_000))
        var clock: WallClock { WallClock { [self] in now.withLock { $0 } } }
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    }

    @Test func anObjectIsKnownForItsLifetimeOnly() throws {
        let hands = Hands()
        let recent = RecentObjects(lifetime: 10, capacity: 3, clock: hands.clock)
        let key = try #require(StorageKey("dual/books/a.mp3"))
        let object = StoredObject(key: key, size: 5, etag: "\"e\"", modified: Date(timeIntervalSince1970: 0))
        #expect(recent.object(key) == nil)
        recent.remember(object)
        hands.advance(9)
        #expect(recent.object(key) == object)
        hands.advance(2)
        #expect(recent.object(key) == nil, "past its lifetime the bucket is asked again")
        recent.remember(object)
        recent.forget(key)
        #expect(recent.object(key) == nil, "a deleted object is not remembered")
        // A clock set back does not make an entry live longer.
        recent.remember(object)
        hands.advance(-60)
        #expect(recent.object(key) == nil)
    }

    @Test func itHoldsNoMoreThanItsCapacity() throws {
        let recent = RecentObjects(lifetime: 10, capacity: 3, clock: Hands().clock)
        let keys = try (0..<4).map { try #require(StorageKey("k/\($0)")) }
        for key in keys { recent.remember(StoredObject(key: key, size: 1, etag: "\"e\"", modified: Date())) }
        #expect(keys.filter { recent.object($0) != nil }.count <= 3)
        #expect(recent.object(keys[3]) != nil, "the newest is kept")
    }
}
