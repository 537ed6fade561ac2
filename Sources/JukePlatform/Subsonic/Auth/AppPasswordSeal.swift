import Crypto
import Foundation

/// Seals app passwords at rest with AES-GCM under a server secret (`SecretStore`, named
/// `subsonic-app-passwords`), so a look at the table, a log of a query or a copy of that
/// table alone shows no password. Someone with the whole database has the secret too: the
/// app password is therefore one made by the server for Subsonic players only, reaching
/// nothing but /rest, and revoked in one click; the web password stays a bcrypt hash.
struct AppPasswordSeal: Sendable {
    let secret: Data

    init(secret: Data) { self.secret = secret }

    var key: SymmetricKey { SymmetricKey(data: secret) }

    func seal(_ password: String) throws -> String {
        guard let combined = try AES.GCM.seal(Data(password.utf8), using: key).combined else {
            throw SubsonicError(.generic, "The app password could not be sealed.")
        }
        return combined.base64EncodedString()
    }

    /// Nil when it does not open (another secret, or damaged): that account's app password
    /// then signs nobody in until it is made again.
    func open(_ sealed: String) -> String? {
        guard let data = Data(base64Encoded: sealed), let box = try? AES.GCM.SealedBox(combined: data),
            let plain = try? AES.GCM.open(box, using: key)
        else { return nil }
        return String(data: plain, encoding: .utf8)
    }
}
