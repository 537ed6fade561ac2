import Crypto
import Foundation
import JukeCore
import Storage

/// Signed addresses of a favourite station through this server's relay, for players that
/// play an `internetRadioStation`'s `streamUrl` as it is, without a Juke login (every
/// Subsonic player does): `?user=<id>&expires=<unix seconds>&signature=<HMAC>`. A link plays
/// one station for one account until it expires; the key is shared by the servers on one
/// database (`SecretStore`), as `MediaLinks`' is.
actor RadioLinks {
    /// Players keep the list they read for a while; each listing makes fresh links.
    static let lifetime: TimeInterval = 30 * 86_400
    private let secrets: SecretStore
    private var key: SymmetricKey?

    init(secrets: SecretStore) { self.secrets = secrets }

    private func signingKey() async throws -> SymmetricKey {
        if let key { return key }
        let loaded = SymmetricKey(data: try await secrets.secret(named: "dual-radio-links"))
        key = loaded
        return loaded
    }

    /// The query that lets `user` listen to `station` until `now` plus `lifetime`.
    func query(station: String, user: UserID, now: Date) async throws -> String {
        let expires = Int64((now.timeIntervalSince1970 + Self.lifetime).rounded(.down))
        return "user=\(user)&expires=\(expires)&signature=\(Self.signature(station: station, user: user, expires: expires, key: try await signingKey()))"
    }

    func isValid(station: String, user: UserID, expires: Int64, signature: String, now: Date) async throws -> Bool {
        guard Double(expires) > now.timeIntervalSince1970 else { return false }
        let expected = Self.signature(station: station, user: user, expires: expires, key: try await signingKey())
        // Compared in constant time: a signature is not guessed a byte at a time.
        guard expected.utf8.count == signature.utf8.count else { return false }
        return zip(expected.utf8, signature.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func signature(station: String, user: UserID, expires: Int64, key: SymmetricKey) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Array("radio|\(station)|\(user)|\(expires)".utf8), using: key)
        return Data(code).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
