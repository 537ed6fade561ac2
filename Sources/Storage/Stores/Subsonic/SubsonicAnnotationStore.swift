public import Foundation
public import JukeCore
import SQLKit

/// Each account's stars and ratings of artists, albums and songs, kept by the ids players
/// see (`ar-…`, `al-…`, `tr-…`: the catalog's stable ids with their kind). Every read and
/// change names its account, so one person's stars never reach another's.
public struct SubsonicAnnotationStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    /// What one account keeps on one item.
    public struct Annotation: Sendable, Equatable {
        public var starredAt: Date?
        public var rating: Int?
        public init(starredAt: Date? = nil, rating: Int? = nil) {
            self.starredAt = starredAt
            self.rating = rating
        }
    }

    /// Stars these items (a star already there keeps its date), or takes the stars away.
    public func setStarred(_ items: [String], user: UserID, starred: Bool, now: Date) async throws {
        guard !items.isEmpty else { return }
        try await database.transaction { db in
            for item in Set(items).sorted() {
                if starred {
                    try await db.raw(
                        """
                        INSERT INTO subsonic_annotations (user_id, item_id, starred_at) VALUES (\(bind: user.description), \(bind: item), \(bind: now.timeIntervalSince1970))
                        ON CONFLICT (user_id, item_id) DO UPDATE SET starred_at = COALESCE(subsonic_annotations.starred_at, excluded.starred_at)
                        """
                    ).run()
                } else {
                    try await db.raw(
                        "UPDATE subsonic_annotations SET starred_at = NULL WHERE user_id = \(bind: user.description) AND item_id = \(bind: item)"
                    ).run()
                }
            }
            try await Self.dropEmpty(user: user, on: db)
        }
    }

    /// Rates an item from 1 to 5, or takes its rating away (nil).
    public func setRating(_ item: String, rating: Int?, user: UserID) async throws {
        try await database.transaction { db in
            try await db.raw(
                """
                INSERT INTO subsonic_annotations (user_id, item_id, rating) VALUES (\(bind: user.description), \(bind: item), \(bind: rating))
                ON CONFLICT (user_id, item_id) DO UPDATE SET rating = excluded.rating
                """
            ).run()
            try await Self.dropEmpty(user: user, on: db)
        }
    }

    /// A row with neither a star nor a rating says nothing: it goes.
    static func dropEmpty(user: UserID, on db: any SQLDatabase) async throws {
        try await db.raw(
            "DELETE FROM subsonic_annotations WHERE user_id = \(bind: user.description) AND starred_at IS NULL AND rating IS NULL"
        ).run()
    }

    /// The account's starred items whose ids start with `kind` (`"tr-"`, say), latest star
    /// first, a page of them.
    public func starred(user: UserID, kind: String, limit: Int, offset: Int) async throws -> [(item: String, at: Date)] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT item_id, starred_at FROM subsonic_annotations
                WHERE user_id = \(bind: user.description) AND starred_at IS NOT NULL AND item_id LIKE \(bind: kind + "%")
                ORDER BY starred_at DESC, item_id LIMIT \(bind: limit) OFFSET \(bind: offset)
                """
            ).all().map { row in
                (try row.decode(column: "item_id", as: String.self), Date(timeIntervalSince1970: try row.decode(column: "starred_at", as: Double.self)))
            }
        }
    }

    /// The account's rated items whose ids start with `kind`, the highest rated first, a page.
    public func rated(user: UserID, kind: String, limit: Int, offset: Int) async throws -> [String] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT item_id FROM subsonic_annotations
                WHERE user_id = \(bind: user.description) AND rating IS NOT NULL AND item_id LIKE \(bind: kind + "%")
                ORDER BY rating DESC, item_id LIMIT \(bind: limit) OFFSET \(bind: offset)
                """
            ).all().map { try $0.decode(column: "item_id", as: String.self) }
        }
    }

    /// What the account keeps on each of these items (items it keeps nothing on are absent).
    public func annotations(user: UserID, items: [String]) async throws -> [String: Annotation] {
        guard !items.isEmpty else { return [:] }
        return try await database.withConnection { db in
            var found: [String: Annotation] = [:]
            // In slices, so a long list never meets a database's limit on bound values.
            for slice in stride(from: 0, to: items.count, by: 500).map({ Array(items[$0..<min($0 + 500, items.count)]) }) {
                let list = SQLList(slice.map { SQLBind($0) })
                let rows = try await db.raw(
                    "SELECT item_id, starred_at, rating FROM subsonic_annotations WHERE user_id = \(bind: user.description) AND item_id IN (\(list))"
                ).all()
                for row in rows {
                    found[try row.decode(column: "item_id", as: String.self)] = Annotation(
                        starredAt: try row.decode(column: "starred_at", as: Double?.self).map(Date.init(timeIntervalSince1970:)),
                        rating: try row.decode(column: "rating", as: Int?.self))
                }
            }
            return found
        }
    }
}
