import Foundation

/// What a Subsonic request signs in with, read from its parameters by the protocol's rules
/// (pure, so every combination is tested without a server):
/// - `apiKey` alone (the apiKeyAuthentication extension); with `u`, `p`, `t` or `s` beside it
///   the mechanisms conflict (43);
/// - `u` with `t` and `s`: the md5 of the app password and the salt;
/// - `u` with `p`: the app password, in clear or as `enc:` and its UTF-8 in hex;
/// - `u` with both `p` and `t` conflicts (43); nothing, or `u` alone, is missing (10).
public enum SubsonicCredentials: Sendable, Equatable {
    case apiKey(String)
    case password(username: String, password: String)
    case token(username: String, token: String, salt: String)

    /// Longest credential read: an API key fits in a query (the extension's 2048), and a
    /// password or salt longer than this is no app password Juke made.
    static let longest = 2048

    public static func read(_ parameters: SubsonicParameters) throws(SubsonicError) -> SubsonicCredentials {
        let apiKey = parameters.string("apiKey")
        let user = parameters.string("u")
        let password = parameters.string("p")
        let token = parameters.string("t")
        let salt = parameters.string("s")
        for value in [apiKey, user, password, token, salt] {
            if let value, value.utf8.count > longest { throw SubsonicError.wrongCredentials }
        }
        if let apiKey {
            guard user == nil, password == nil, token == nil, salt == nil else {
                throw SubsonicError(.conflictingMechanisms, "Multiple conflicting authentication mechanisms provided: send apiKey without u, p, t or s.")
            }
            guard !apiKey.isEmpty else { throw SubsonicError.invalidAPIKey }
            return .apiKey(apiKey)
        }
        guard let user, !user.isEmpty else { throw SubsonicError.missing("u (or apiKey)") }
        if password != nil && (token != nil || salt != nil) {
            throw SubsonicError(.conflictingMechanisms, "Multiple conflicting authentication mechanisms provided: send p, or t and s, not both.")
        }
        if let password {
            return .password(username: user, password: try decodePassword(password))
        }
        guard let token, !token.isEmpty else { throw SubsonicError.missing("p, or t and s") }
        guard let salt, !salt.isEmpty else { throw SubsonicError.missing("s") }
        return .token(username: user, token: token.lowercased(), salt: salt)
    }

    /// `enc:` and hex is the password's UTF-8 (Subsonic's light obfuscation); anything else is
    /// the password itself. Hex that is not hex is a wrong password, not a missing one.
    static func decodePassword(_ text: String) throws(SubsonicError) -> String {
        guard text.hasPrefix("enc:") else { return text }
        let hex = Array(text.dropFirst(4).utf8)
        guard hex.count % 2 == 0 else { throw SubsonicError.wrongCredentials }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var i = 0
        while i < hex.count {
            guard let high = nibble(hex[i]), let low = nibble(hex[i + 1]) else { throw SubsonicError.wrongCredentials }
            bytes.append(high << 4 | low)
            i += 2
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw SubsonicError.wrongCredentials }
        return decoded
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The account it names, for the sign-in limits (nil for an API key, which names none).
    var username: String? {
        switch self {
        case .apiKey: nil
        case .password(let u, _), .token(let u, _, _): u
        }
    }
}
