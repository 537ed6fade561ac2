import Crypto
public import Foundation
public import JukeCore
import Storage

/// Links to a track's audio that play without a Juke login, for an exported playlist opened
/// in another player: `?expires=<unix seconds>&signature=<HMAC>`. The key is shared by the
/// servers on one database (`SecretStore`), so a link made by one plays from any; a link is
/// good for one track until it expires, and changing nothing else about it keeps it valid.
public actor MediaLinks {
    /// How long an exported link plays.
    public static let lifetime: TimeInterval = 7 * 24 * 3600
    private let secrets: SecretStore
    private var key: SymmetricKey?

    public init(secrets: SecretStore) { self.secrets = secrets }

    private func signingKey() async throws -> SymmetricKey {
        if let key { return key }
        let loaded = SymmetricKey(data: try await secrets.secret(named: "media-links"))
        key = loaded
        return loaded
    }

    /// The query that lets `track` play until `now` plus `lifetime`.
    public func query(for track: TrackID, now: Date) async throws -> String {
        let expires = Int64((now.timeIntervalSince1970 + Self.lifetime).rounded(.down))
        return "expires=\(expires)&signature=\(Self.signature(track: track, expires: expires, key: try await signingKey()))"
    }

    /// Whether the link's signature is this server's for `track` and it has not expired.
    public func isValid(track: TrackID, expires: Int64, signature: String, now: Date) async throws -> Bool {
        guard Double(expires) > now.timeIntervalSince1970 else { return false }
        let expected = Self.signature(track: track, expires: expires, key: try await signingKey())
        // Compared in constant time: a signature is not guessed a byte at a time.
        guard expected.utf8.count == signature.utf8.count else { return false }
        return zip(expected.utf8, signature.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func signature(track: TrackID, expires: Int64, key: SymmetricKey) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Array("audio|\(track)|\(expires)".utf8), using: key)
        return Data(code).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
