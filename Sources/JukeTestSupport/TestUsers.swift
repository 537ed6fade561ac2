import Foundation
import JukeCore

/// An account for a store test, its fields derived from `name`.
public func testUser(_ name: String, admin: Bool = false) -> User {
    User(
        id: UserID(), username: name, email: "\(name)@example.com", displayName: name.capitalized, isAdmin: admin,
        createdAt: Date(timeIntervalSince1970: 1_700_000_000))
}
