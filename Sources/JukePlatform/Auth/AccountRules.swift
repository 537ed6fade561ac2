import Foundation
import JukeCore

/// What Juke accepts as a username, password, email and display name. Each failure names
/// its field, so the page can put the message beside it.
enum AccountRules {
    static let usernameLength = 3...32
    static let passwordLength = 8...200
    static let usernameCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")

    static func validateUsername(_ username: String) throws(APIError) -> String {
        // Lengths count Unicode scalars, as the JSON Schema in the spec does.
        let name = username
        guard usernameLength.contains(name.unicodeScalars.count) else {
            throw .unprocessable("A username has 3 to 32 characters.", field: "username")
        }
        guard name.unicodeScalars.allSatisfy(usernameCharacters.contains) else {
            throw .unprocessable("A username uses only letters, digits, '.', '_' and '-'.", field: "username")
        }
        return name
    }

    static func validatePassword(_ password: String) throws(APIError) {
        guard passwordLength.contains(password.unicodeScalars.count) else {
            throw .unprocessable("A password has 8 to 200 characters.", field: "password")
        }
        // Every byte counts, however long: bcrypt is given the password's HMAC (PasswordHasher).
    }

    static func validateEmail(_ email: String?) throws(APIError) -> String? {
        guard let email = email?.trimmingCharacters(in: .whitespaces) else { return nil }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !email.contains(" ") else {
            throw .unprocessable("That does not look like an email address.", field: "email")
        }
        return email
    }

    static func validateDisplayName(_ name: String?, fallback: String) throws(APIError) -> String {
        let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard trimmed.unicodeScalars.count <= 64 else { throw .unprocessable("A display name has at most 64 characters.", field: "display_name") }
        guard TextRules.isAllowed(trimmed) else {
            throw .unprocessable("A display name cannot contain control characters or bidirectional overrides.", field: "display_name")
        }
        return trimmed.isEmpty ? fallback : trimmed
    }
}
