import DualPlayer
import Foundation
import JukeCore
import SQLKit
import Storage

/// What a Subsonic bookmark adds to a saved position: its comment and when it was first made.
/// The position itself is the one the page saves (`dual_positions`); this is only its note.
public struct BookmarkNoteStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    public struct Note: Sendable, Equatable {
        public var comment: String
        /// Milliseconds since 1970.
        public var createdAt: Int64
    }

    /// Every note `user` has, by item key ("book:<id>", "episode:<id>").
    public func notes(of user: UserID) async throws -> [String: Note] {
        try await database.withConnection { db in
            var out: [String: Note] = [:]
            for row in try await db.raw("SELECT item, comment, created_at FROM dual_bookmark_notes WHERE user_id = \(bind: user.description)").all() {
                out[try row.decode(column: "item", as: String.self)] = Note(
                    comment: try row.decode(column: "comment", as: String.self), createdAt: try row.decode(column: "created_at", as: Int64.self))
            }
            return out
        }
    }

    /// Sets the comment; the time it was first made is kept when one is there.
    public func save(comment: String, item: String, of user: UserID, now: Int64) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO dual_bookmark_notes (user_id, item, comment, created_at)
                VALUES (\(bind: user.description), \(bind: item), \(bind: comment), \(bind: now))
                ON CONFLICT (user_id, item) DO UPDATE SET comment = excluded.comment
                """
            ).run()
        }
    }

    /// Removes an item's bookmark: its note, and every position saved for it (a book's own
    /// and its chapters', `item#<n>`). False when there was none of either.
    public func delete(item: String, of user: UserID) async throws -> Bool {
        try await database.transaction { db in
            let notes = try await db.raw(
                "DELETE FROM dual_bookmark_notes WHERE user_id = \(bind: user.description) AND item = \(bind: item) RETURNING item"
            ).all()
            // The item's keys are a UUID's letters, digits and hyphens: no LIKE wildcard in them.
            let positions = try await db.raw(
                """
                DELETE FROM dual_positions WHERE user_id = \(bind: user.description)
                    AND (item = \(bind: item) OR item LIKE \(bind: item + "#%")) RETURNING item
                """
            ).all()
            return !notes.isEmpty || !positions.isEmpty
        }
    }
}
