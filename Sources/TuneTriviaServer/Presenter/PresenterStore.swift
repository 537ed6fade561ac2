import Foundation
import JukeCore
import SQLKit
import Storage
import TuneTrivia

/// The big screens showing games: pairing codes waiting to be typed into a TV, and the
/// tokens of the screens that paired. Only a token's SHA-256 is stored, as for sign-in
/// tokens.
struct PresenterStore: Sendable {
    let database: any JukeDatabase

    /// Stores a pairing code for `session`. Throws StorageError.conflict when the code is taken.
    func addPairing(_ code: String, session: SessionID, expires: Date, now: Date) async throws {
        try await database.transaction { db in
            if try await db.raw("SELECT id FROM tunetrivia_presenters WHERE pairing_code = \(bind: code)").first() != nil {
                throw StorageError.conflict("pairing code")
            }
            try await db.raw(
                """
                INSERT INTO tunetrivia_presenters (id, session_id, pairing_code, token_hash, created_at, expires_at, last_seen_at)
                VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: session.description), \(bind: code), NULL,
                        \(bind: now.timeIntervalSince1970), \(bind: expires.timeIntervalSince1970), NULL)
                """
            ).run()
        }
    }

    /// Swaps an unexpired pairing code for a token: the code works once. Returns the game it
    /// pairs with, or nil when there is no such code (or it expired, or was used).
    func redeem(_ code: String, tokenHash: String, expires: Date, now: Date) async throws -> SessionID? {
        let lock = database.kind == .postgres ? " FOR UPDATE" : ""
        return try await database.transaction { db in
            guard
                let row = try await db.raw(
                    SQLQueryString("SELECT id, session_id FROM tunetrivia_presenters WHERE pairing_code = ")
                        + "\(bind: code) AND expires_at > \(bind: now.timeIntervalSince1970)" + SQLQueryString(lock)
                )
                .first()
            else { return nil }
            let id = try row.decode(column: "id", as: String.self)
            try await db.raw(
                """
                UPDATE tunetrivia_presenters SET pairing_code = NULL, token_hash = \(bind: tokenHash),
                    expires_at = \(bind: expires.timeIntervalSince1970), last_seen_at = \(bind: now.timeIntervalSince1970)
                WHERE id = \(bind: id)
                """
            ).run()
            return try decodeID(row, "session_id")
        }
    }

    /// A screen that paired without a code (the host signed in on it).
    func addToken(_ tokenHash: String, session: SessionID, expires: Date, now: Date) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO tunetrivia_presenters (id, session_id, pairing_code, token_hash, created_at, expires_at, last_seen_at)
                VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: session.description), NULL, \(bind: tokenHash),
                        \(bind: now.timeIntervalSince1970), \(bind: expires.timeIntervalSince1970), \(bind: now.timeIntervalSince1970))
                """
            ).run()
        }
    }

    /// The game an unexpired token shows, or nil.
    func session(tokenHash: String, now: Date) async throws -> SessionID? {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT session_id FROM tunetrivia_presenters
                WHERE token_hash = \(bind: tokenHash) AND expires_at > \(bind: now.timeIntervalSince1970)
                """
            ).first().map { try decodeID($0, "session_id") }
        }
    }

    /// Notes that the screen with this token asked for the game just now.
    func seen(tokenHash: String, at now: Date) async throws {
        try await database.withConnection { db in
            try await db.raw(
                "UPDATE tunetrivia_presenters SET last_seen_at = \(bind: now.timeIntervalSince1970) WHERE token_hash = \(bind: tokenHash)"
            ).run()
        }
    }

    /// When a paired screen of the game last asked for it, or nil when none has.
    func lastSeen(session: SessionID, now: Date) async throws -> Date? {
        try await database.withConnection { db in
            let row = try await db.raw(
                """
                SELECT MAX(last_seen_at) AS seen FROM tunetrivia_presenters
                WHERE session_id = \(bind: session.description) AND token_hash IS NOT NULL AND expires_at > \(bind: now.timeIntervalSince1970)
                """
            ).first()
            return try row?.decode(column: "seen", as: Double?.self).map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Disconnects every screen of the game and voids its unused codes.
    func removeAll(session: SessionID) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM tunetrivia_presenters WHERE session_id = \(bind: session.description)").run()
        }
    }

    /// Forgets expired codes and tokens.
    func removeExpired(now: Date) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM tunetrivia_presenters WHERE expires_at <= \(bind: now.timeIntervalSince1970)").run()
        }
    }
}
