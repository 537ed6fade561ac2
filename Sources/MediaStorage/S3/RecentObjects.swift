import Foundation
import JukeCore
import Synchronization

/// What the bucket said of objects asked about lately, kept for a few seconds: a player's
/// seeks ask for the same book again and again, and each would otherwise cost a HEAD before
/// its ranged GET (two round trips to the bucket instead of one).
///
/// Safe because a key is never reused for other bytes (each upload, download and cut gets a
/// new key or the same bytes): what may be stale is only whether the object still exists,
/// and a GET of one deleted meanwhile (by another server) answers not found all the same.
final class RecentObjects: Sendable {
    private let seen = Mutex<[StorageKey: (object: StoredObject, at: Date)]>([:])
    let lifetime: TimeInterval
    /// Past this many, the memo starts again empty (a bound, not an eviction policy).
    let capacity: Int
    let clock: WallClock

    init(lifetime: TimeInterval = 10, capacity: Int = 1000, clock: WallClock) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.clock = clock
    }

    func object(_ key: StorageKey) -> StoredObject? {
        let now = clock.now()
        return seen.withLock { seen in
            guard let entry = seen[key] else { return nil }
            guard now.timeIntervalSince(entry.at) < lifetime, now >= entry.at else {
                seen[key] = nil
                return nil
            }
            return entry.object
        }
    }

    func remember(_ object: StoredObject) {
        let now = clock.now()
        seen.withLock { seen in
            if seen.count >= capacity { seen.removeAll() }
            seen[object.key] = (object, now)
        }
    }

    func forget(_ key: StorageKey) {
        _ = seen.withLock { $0.removeValue(forKey: key) }
    }
}
