import JukeCore
import Synchronization

/// Tokens this server has found valid, and whose they are. A player in a live game sends an
/// answer a moment after opening the game with the same token; the answer need not wait for
/// a lookup of its own, because the transaction that stores it checks every token of its
/// batch in one query (`TuneTriviaService`). Nothing else trusts this list: a signed-out
/// token is refused everywhere else at once, on every server.
public final class KnownTokens: Sendable {
    private let users = Mutex<[String: User]>([:])
    /// Past this many, the list starts again (a token is learned again on its next lookup).
    public let limit: Int

    public init(limit: Int = 100_000) { self.limit = limit }

    public func remember(_ hash: String, as user: User) {
        users.withLock {
            if $0.count >= limit { $0.removeAll(keepingCapacity: true) }
            $0[hash] = user
        }
    }

    public func user(_ hash: String) -> User? { users.withLock { $0[hash] } }

    public func forget(_ hash: String) { _ = users.withLock { $0.removeValue(forKey: hash) } }
}
