import Crypto
public import Foundation

/// Proof Key for Code Exchange (RFC 7636), as Spotify's Authorization Code with PKCE flow uses
/// it: a random verifier kept by the server, its SHA-256 challenge sent with the authorization.
public enum SpotifyPKCE {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// A verifier of `length` (43 to 128) unreserved characters.
    public static func verifier(length: Int = 64, using generator: inout some RandomNumberGenerator) -> String {
        String((0..<max(43, min(128, length))).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// The S256 challenge: base64url of the verifier's SHA-256, without padding.
    public static func challenge(for verifier: String) -> String {
        base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
