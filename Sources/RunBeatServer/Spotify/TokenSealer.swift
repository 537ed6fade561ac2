import Crypto
import Foundation
import JukeCore
import Storage

/// Spotify's tokens sealed at rest: AES-GCM under a 256-bit key, with the runner's id as
/// associated data, so a sealed token copied into another runner's row does not open.
///
/// The key is the operator's (`--spotify-token-key`, kept out of the database, so a copy of
/// the database alone holds no usable token) or else one made once in the database's
/// server secrets and shared by every server on it (the tokens are then unreadable to
/// anything that reads rows without that secret: logs, exports of one table).
actor TokenSealer {
    static let secretName = "runbeat-spotify-tokens"
    static let prefix = "v1:"

    let secrets: SecretStore
    let configured: Data?
    private var key: SymmetricKey?

    init(secrets: SecretStore, key: Data?) {
        self.secrets = secrets
        self.configured = key
    }

    func seal(_ text: String, for user: UserID) async throws -> String {
        let box = try AES.GCM.seal(Data(text.utf8), using: try await currentKey(), authenticating: Data(user.description.utf8))
        guard let combined = box.combined else { throw SealError.cannotSeal }
        return Self.prefix + combined.base64EncodedString()
    }

    func open(_ sealed: String, for user: UserID) async throws -> String {
        guard sealed.hasPrefix(Self.prefix), let data = Data(base64Encoded: String(sealed.dropFirst(Self.prefix.count))) else {
            throw SealError.unreadable
        }
        do {
            let box = try AES.GCM.SealedBox(combined: data)
            let plain = try AES.GCM.open(box, using: try await currentKey(), authenticating: Data(user.description.utf8))
            guard let text = String(data: plain, encoding: .utf8) else { throw SealError.unreadable }
            return text
        } catch let error as SealError {
            throw error
        } catch {
            // Another key (the operator changed it), or a row tampered with.
            throw SealError.unreadable
        }
    }

    private func currentKey() async throws -> SymmetricKey {
        if let key { return key }
        let bytes: Data
        if let configured { bytes = configured } else { bytes = try await secrets.secret(named: Self.secretName) }
        let made = SymmetricKey(data: bytes)
        key = made
        return made
    }

    enum SealError: Error, CustomStringConvertible {
        case cannotSeal
        case unreadable

        var description: String {
            switch self {
            case .cannotSeal: "the token could not be sealed"
            case .unreadable: "a stored Spotify token cannot be opened with this server's key"
            }
        }
    }
}
