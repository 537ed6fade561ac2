import Foundation
import JukeCore
import Synchronization

/// Who a token belongs to, remembered for a few seconds, so a burst of requests (a room of
/// phones answering at once) does not ask the database for the same token each time.
///
/// Only found tokens are kept, never "no such token", so a token just issued works at once.
/// A sign-out on this server forgets its token immediately; one on another server sharing the
/// database, or a password changed from the command line, takes effect here within
/// `lifetime`. The token's own expiry is never stretched: an entry lives no longer than it.
final class SignedInCache: Sendable {
    private struct Entry {
        let user: User
        let until: Date
    }

    private let entries = Mutex<[String: Entry]>([:])
    let lifetime: TimeInterval
    /// Beyond this many tokens the cache starts again empty: memory stays bounded whatever
    /// the traffic, and the cost is one database read per token.
    let capacity: Int

    init(lifetime: TimeInterval = 5, capacity: Int = 100_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The user of `tokenHash` if it was looked up less than `lifetime` ago.
    func user(_ tokenHash: String, now: Date) -> User? {
        entries.withLock { entries in
            guard let entry = entries[tokenHash] else { return nil }
            guard entry.until > now else {
                entries[tokenHash] = nil
                return nil
            }
            return entry.user
        }
    }

    /// Remembers a token the database just vouched for, until `tokenExpiry` at the latest.
    func remember(_ tokenHash: String, user: User, tokenExpiry: Date?, now: Date) {
        let until = min(now.addingTimeInterval(lifetime), tokenExpiry ?? .distantFuture)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[tokenHash] = Entry(user: user, until: until)
        }
    }

    func forget(_ tokenHash: String) {
        _ = entries.withLock { $0.removeValue(forKey: tokenHash) }
    }
}
