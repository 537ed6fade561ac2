import Crypto
import Foundation
import JukeCore

/// The legacy forms' check, pure: a password is compared with the app password; a token is
/// md5(app password + salt) in hex, as Subsonic defines it (which is why the server must be
/// able to read the app password, and why it is one made for this, never the web password).
public enum AppPasswordCheck {
    public static func matches(_ credentials: SubsonicCredentials, appPassword: String) -> Bool {
        switch credentials {
        case .apiKey: return false
        case .password(_, let password): return constantTimeEqual(Array(password.utf8), Array(appPassword.utf8))
        case .token(_, let token, let salt):
            return constantTimeEqual(Array(token.utf8), Array(md5Hex(appPassword + salt).utf8))
        }
    }

    public static func md5Hex(_ text: String) -> String { Hex.string(Insecure.MD5.hash(data: Data(text.utf8))) }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// A new app password: 24 characters from an alphabet with no look-alikes (about 137
    /// bits), typed into a phone once.
    public static func generate() -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyzACDEFGHJKLMNPQRTUVWXY34679")
        var generator = SystemRandomNumberGenerator()
        return String((0..<24).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
