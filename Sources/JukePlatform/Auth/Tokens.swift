import Crypto
import Foundation
import Hummingbird
import JukeCore

/// Login tokens: 32 random bytes, base64url. Only their SHA-256 is stored, so a copy of the
/// database cannot be used to sign in.
public enum Tokens {
    static let cookieName = "juke_session"

    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    public static func hash(_ token: String) -> String {
        Hex.string(SHA256.hash(data: Data(token.utf8)))
    }

    /// `secure` when the browser came over HTTPS: the cookie is then never sent in clear text.
    static func cookie(_ token: String, maxAge: Int, secure: Bool) -> String {
        "\(cookieName)=\(token); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    static func clearedCookie(secure: Bool) -> String { cookie("", maxAge: 0, secure: secure) }

    /// The token a request presents: `Authorization: Bearer`, or for GET and HEAD only the
    /// session cookie (so `<audio src>` and WebSocket upgrades work, while a forged cross-site
    /// POST never carries authority). Nil when absent or implausibly long.
    public static func presented(by request: Request) -> String? {
        var token: String?
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        } else if request.method == .get || request.method == .head, let cookie = request.headers[.cookie] {
            token = fromCookieHeader(cookie)
        }
        guard let token, !token.isEmpty, token.count <= 256 else { return nil }
        return token
    }

    /// The token from a Cookie header, if it carries ours.
    static func fromCookieHeader(_ header: String) -> String? {
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            if pair.hasPrefix(cookieName + "=") {
                let value = String(pair.dropFirst(cookieName.count + 1))
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }
}
