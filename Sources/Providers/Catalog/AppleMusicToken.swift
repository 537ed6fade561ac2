import Crypto
public import Foundation
import Synchronization

/// An Apple Music developer token: a JSON Web Token signed with ES256 by the private key of
/// a MusicKit key (.p8, PKCS#8 PEM), with the key's ID as `kid` and the team ID as `iss`.
/// Tokens are made for `lifetime` and made again when less than a day of it is left.
public final class AppleMusicToken: Sendable {
    public let keyID: String
    public let teamID: String
    public let lifetime: TimeInterval
    /// The private key's raw bytes (swift-crypto's key type is not Sendable; a key is cheap
    /// to rebuild for the rare signing).
    private let key: Data
    private let cache = Cache()

    /// Throws `CatalogError.invalidKey` when the PEM is not a P-256 private key, or the IDs
    /// are not the 10 characters Apple gives them.
    public init(pem: String, keyID: String, teamID: String, lifetime: TimeInterval = 30 * 24 * 3600) throws(CatalogError) {
        let isID = { (s: String) in s.count == 10 && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        guard isID(keyID) else { throw .invalidKey("the key ID is 10 letters and digits") }
        guard isID(teamID) else { throw .invalidKey("the team ID is 10 letters and digits") }
        do {
            key = try P256.Signing.PrivateKey(pemRepresentation: pem).rawRepresentation
        } catch {
            throw .invalidKey("the .p8 file is not a P-256 private key")
        }
        self.keyID = keyID
        self.teamID = teamID
        // Apple accepts at most six months.
        self.lifetime = min(lifetime, 180 * 24 * 3600)
    }

    /// A token valid at `now`.
    func jwt(at now: Date) throws(CatalogError) -> String {
        if let (token, expires) = cache.get(), expires.timeIntervalSince(now) > 24 * 3600 { return token }
        let issued = Int(now.timeIntervalSince1970)
        let expires = issued + Int(lifetime)
        let header = #"{"alg":"ES256","kid":"\#(keyID)","typ":"JWT"}"#
        let payload = #"{"exp":\#(expires),"iat":\#(issued),"iss":"\#(teamID)"}"#
        let input = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(payload.utf8))
        guard let signer = try? P256.Signing.PrivateKey(rawRepresentation: key), let signature = try? signer.signature(for: Data(input.utf8)) else {
            throw .invalidKey("signing failed")
        }
        let token = input + "." + Self.base64URL(signature.rawRepresentation)
        cache.set(token, Date(timeIntervalSince1970: TimeInterval(expires)))
        return token
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The token made last, shared by concurrent requests.
    final class Cache: Sendable {
        private let value = Mutex<(String, Date)?>(nil)
        func get() -> (String, Date)? { value.withLock { $0 } }
        func set(_ token: String, _ expires: Date) { value.withLock { $0 = (token, expires) } }
    }
}
