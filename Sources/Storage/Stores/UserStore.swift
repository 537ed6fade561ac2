public import Foundation
public import JukeCore
import SQLKit

/// Accounts, their login tokens and the failure log that rate-limits logins.
public struct UserStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    /// A user together with the stored password hash, for checking a login.
    public struct Credentials: Sendable {
        public let user: User
        public let passwordHash: String
    }

    public func create(_ user: User, passwordHash: String) async throws {
        let key = user.username.lowercased()
        try await database.transaction { db in
            let existing = try await db.raw("SELECT id FROM users WHERE username_key = \(bind: key)").first()
            guard existing == nil else { throw StorageError.conflict("username '\(user.username)'") }
            try await db.raw(
                """
                INSERT INTO users (id, username, username_key, email, display_name, password_hash, is_admin, created_at)
                VALUES (\(bind: user.id.description), \(bind: user.username), \(bind: key), \(bind: user.email),
                        \(bind: user.displayName), \(bind: passwordHash), \(bind: user.isAdmin ? 1 : 0),
                        \(bind: user.createdAt.timeIntervalSince1970))
                """
            ).run()
        }
    }

    public func count() async throws -> Int {
        try await database.withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM users").first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    public func credentials(username: String) async throws -> Credentials? {
        try await database.withConnection { db in
            guard let row = try await db.raw("SELECT * FROM users WHERE username_key = \(bind: username.lowercased())").first() else { return nil }
            return Credentials(user: try Self.user(row), passwordHash: try row.decode(column: "password_hash", as: String.self))
        }
    }

    public func user(id: UserID) async throws -> User? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM users WHERE id = \(bind: id.description)").first().map(Self.user)
        }
    }

    public func setPassword(_ id: UserID, passwordHash: String) async throws {
        try await database.transaction { db in
            try await db.raw("UPDATE users SET password_hash = \(bind: passwordHash) WHERE id = \(bind: id.description)").run()
            // A new password signs out every session made with the old one.
            try await db.raw("DELETE FROM auth_tokens WHERE user_id = \(bind: id.description)").run()
        }
    }

    static func user(_ row: any SQLRow) throws -> User {
        let rawID = try row.decode(column: "id", as: String.self)
        guard let id = UserID(rawID) else { throw StorageError.notFound("user id \(rawID) is not a UUID") }
        return User(
            id: id,
            username: try row.decode(column: "username", as: String.self),
            email: try row.decode(column: "email", as: String?.self),
            displayName: try row.decode(column: "display_name", as: String.self),
            isAdmin: try row.decode(column: "is_admin", as: Int.self) != 0,
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self))
        )
    }

    // MARK: Tokens (stored as SHA-256 hashes; the token itself exists only on the client)

    public func storeToken(hash: String, user: UserID, createdAt: Date, expiresAt: Date) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO auth_tokens (token_hash, user_id, created_at, expires_at)
                VALUES (\(bind: hash), \(bind: user.description), \(bind: createdAt.timeIntervalSince1970), \(bind: expiresAt.timeIntervalSince1970))
                """
            ).run()
        }
    }

    /// The user a token hash belongs to, if the token exists and has not expired.
    public func user(tokenHash: String, now: Date) async throws -> User? {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT users.* FROM auth_tokens JOIN users ON users.id = auth_tokens.user_id
                WHERE auth_tokens.token_hash = \(bind: tokenHash) AND auth_tokens.expires_at > \(bind: now.timeIntervalSince1970)
                """
            ).first().map(Self.user)
        }
    }

    /// Which of these tokens are still valid: one query for a whole batch of answers.
    public func validTokens(_ hashes: Set<String>, now: Date) async throws -> Set<String> {
        guard !hashes.isEmpty else { return [] }
        return try await database.withConnection { db in
            var list = SQLQueryString("")
            for (i, hash) in hashes.enumerated() { list = list + (i == 0 ? "" : ", ") + "\(bind: hash)" }
            let rows = try await db.raw(
                "SELECT token_hash FROM auth_tokens WHERE expires_at > \(bind: now.timeIntervalSince1970) AND token_hash IN (" + list + ")"
            ).all()
            return Set(try rows.map { try $0.decode(column: "token_hash", as: String.self) })
        }
    }

    public func revokeToken(hash: String) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM auth_tokens WHERE token_hash = \(bind: hash)").run()
        }
    }

    public func deleteExpiredTokens(now: Date) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM auth_tokens WHERE expires_at <= \(bind: now.timeIntervalSince1970)").run()
        }
    }

    // MARK: Login failures

    /// Counts a failure (or an attempt not yet judged, named by `attempt`) against each subject.
    public func recordLoginFailure(subjects: [String], at time: Date, attempt: String? = nil) async throws {
        try await database.transaction { db in
            for subject in subjects {
                try await db.raw(
                    """
                    INSERT INTO login_failures (subject, failed_at, attempt)
                    VALUES (\(bind: subject), \(bind: time.timeIntervalSince1970), \(bind: attempt))
                    """
                ).run()
            }
        }
    }

    /// Takes back an attempt's rows: it was refused before being judged, or it succeeded.
    public func forgetLoginAttempt(_ attempt: String) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM login_failures WHERE attempt = \(bind: attempt)").run()
        }
    }

    /// Failures per subject since `since`, and the oldest of them (to say when the window frees up).
    public func loginFailures(subject: String, since: Date) async throws -> (count: Int, oldest: Date?) {
        try await database.withConnection { db in
            let row = try await db.raw(
                "SELECT COUNT(*) AS n, MIN(failed_at) AS oldest FROM login_failures WHERE subject = \(bind: subject) AND failed_at > \(bind: since.timeIntervalSince1970)"
            ).first()
            let n = try row?.decode(column: "n", as: Int.self) ?? 0
            let oldest = try row?.decode(column: "oldest", as: Double?.self)
            return (n, oldest.map(Date.init(timeIntervalSince1970:)))
        }
    }

    public func clearLoginFailures(subject: String) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM login_failures WHERE subject = \(bind: subject)").run()
        }
    }

    public func pruneLoginFailures(before: Date) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM login_failures WHERE failed_at <= \(bind: before.timeIntervalSince1970)").run()
        }
    }
}
