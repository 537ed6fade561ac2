public import Foundation
public import JukeCore
import SQLKit

/// What Subsonic-family players sign in with: API keys (stored as SHA-256 hashes, like login
/// tokens) and each account's app password (stored sealed; the platform seals and opens it).
/// Every read and change names its account, so one person's keys never reach another's.
public struct SubsonicCredentialStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    public struct APIKey: Sendable, Equatable {
        public let id: UUID
        public let name: String
        public let createdAt: Date
        public let lastUsedAt: Date?

        public init(id: UUID, name: String, createdAt: Date, lastUsedAt: Date?) {
            self.id = id
            self.name = name
            self.createdAt = createdAt
            self.lastUsedAt = lastUsedAt
        }
    }

    public func addAPIKey(id: UUID, user: UserID, name: String, keyHash: String, now: Date) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO subsonic_api_keys (id, user_id, name, key_hash, created_at)
                VALUES (\(bind: id.uuidString.lowercased()), \(bind: user.description), \(bind: name), \(bind: keyHash), \(bind: now.timeIntervalSince1970))
                """
            ).run()
        }
    }

    /// The account's keys, oldest first.
    public func apiKeys(user: UserID) async throws -> [APIKey] {
        try await database.withConnection { db in
            try await db.raw(
                "SELECT id, name, created_at, last_used_at FROM subsonic_api_keys WHERE user_id = \(bind: user.description) ORDER BY created_at, id"
            ).all().map { row in
                APIKey(
                    id: UUID(uuidString: try row.decode(column: "id", as: String.self)) ?? UUID(),
                    name: try row.decode(column: "name", as: String.self),
                    createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
                    lastUsedAt: try row.decode(column: "last_used_at", as: Double?.self).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    public func countAPIKeys(user: UserID) async throws -> Int {
        try await database.withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM subsonic_api_keys WHERE user_id = \(bind: user.description)").first()?.decode(
                column: "n", as: Int.self) ?? 0
        }
    }

    /// Revokes one of the account's keys; false when it has no such key (another account's
    /// key is "no such key" too).
    public func revokeAPIKey(id: UUID, user: UserID) async throws -> Bool {
        try await database.withConnection { db in
            let idText = id.uuidString.lowercased()
            let found = try await db.raw(
                "SELECT id FROM subsonic_api_keys WHERE id = \(bind: idText) AND user_id = \(bind: user.description)"
            ).first()
            guard found != nil else { return false }
            try await db.raw("DELETE FROM subsonic_api_keys WHERE id = \(bind: idText) AND user_id = \(bind: user.description)").run()
            return true
        }
    }

    /// The account a key's hash belongs to; its last use is noted.
    public func user(apiKeyHash: String, now: Date) async throws -> User? {
        try await database.withConnection { db in
            guard
                let user = try await db.raw(
                    "SELECT users.* FROM subsonic_api_keys JOIN users ON users.id = subsonic_api_keys.user_id WHERE subsonic_api_keys.key_hash = \(bind: apiKeyHash)"
                ).first().map(UserStore.user)
            else { return nil }
            try await db.raw("UPDATE subsonic_api_keys SET last_used_at = \(bind: now.timeIntervalSince1970) WHERE key_hash = \(bind: apiKeyHash)").run()
            return user
        }
    }

    // MARK: App passwords

    public func setAppPassword(user: UserID, sealed: String, now: Date) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO subsonic_app_passwords (user_id, sealed, created_at) VALUES (\(bind: user.description), \(bind: sealed), \(bind: now.timeIntervalSince1970))
                ON CONFLICT (user_id) DO UPDATE SET sealed = excluded.sealed, created_at = excluded.created_at
                """
            ).run()
        }
    }

    public func deleteAppPassword(user: UserID) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM subsonic_app_passwords WHERE user_id = \(bind: user.description)").run()
        }
    }

    public func appPasswordCreatedAt(user: UserID) async throws -> Date? {
        try await database.withConnection { db in
            try await db.raw("SELECT created_at FROM subsonic_app_passwords WHERE user_id = \(bind: user.description)").first()
                .map { Date(timeIntervalSince1970: try $0.decode(column: "created_at", as: Double.self)) }
        }
    }

    /// The account called `username` and its sealed app password, if it has one.
    public func appPassword(username: String) async throws -> (user: User, sealed: String)? {
        try await database.withConnection { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT users.*, subsonic_app_passwords.sealed AS sealed FROM users
                    JOIN subsonic_app_passwords ON subsonic_app_passwords.user_id = users.id
                    WHERE users.username_key = \(bind: username.lowercased())
                    """
                ).first()
            else { return nil }
            return (try UserStore.user(row), try row.decode(column: "sealed", as: String.self))
        }
    }
}

extension UserStore {
    /// Every account, by username (Subsonic's getUsers, for admins).
    public func all() async throws -> [User] {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM users ORDER BY username_key").all().map(Self.user)
        }
    }

    public func user(username: String) async throws -> User? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM users WHERE username_key = \(bind: username.lowercased())").first().map(Self.user)
        }
    }
}
