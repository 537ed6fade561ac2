import DualPlayer
import Foundation
import JukeCore
import SQLKit
import Storage

/// Dual Player's rows. Saves of player states and positions keep the newest by the
/// device's `updated_at` in one statement (`SavedPosition.newest`'s rule: a newer time
/// replaces, a tie or an older one leaves the stored row), so two devices saving at once
/// cannot interleave a read and a write.
public struct DualPlayerStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    public func settings(of user: UserID) async throws -> DualSettings? {
        try await database.withConnection { db in
            guard let row = try await db.raw("SELECT data FROM dual_settings WHERE user_id = \(bind: user.description)").first() else { return nil }
            return try JSONColumn.decode(DualSettings.self, try row.decode(column: "data", as: String.self))
        }
    }

    public func save(_ settings: DualSettings, of user: UserID, now: Date) async throws {
        let data = try JSONColumn.encode(settings)
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO dual_settings (user_id, data, updated_at) VALUES (\(bind: user.description), \(bind: data), \(bind: now.timeIntervalSince1970))
                ON CONFLICT (user_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at
                """
            ).run()
        }
    }

    /// Each player's stored state (JSON) and its time.
    public func players(of user: UserID) async throws -> [PlayerKind: (data: String, updatedAt: Int64)] {
        try await database.withConnection { db in
            var out: [PlayerKind: (data: String, updatedAt: Int64)] = [:]
            for row in try await db.raw("SELECT player, data, updated_at FROM dual_players WHERE user_id = \(bind: user.description)").all() {
                guard let kind = PlayerKind(rawValue: try row.decode(column: "player", as: String.self)) else { continue }
                out[kind] = (try row.decode(column: "data", as: String.self), try row.decode(column: "updated_at", as: Int64.self))
            }
            return out
        }
    }

    /// Saves `data` unless a newer state is stored; returns the state kept.
    public func savePlayer(_ kind: PlayerKind, data: String, updatedAt: Int64, of user: UserID) async throws -> (data: String, updatedAt: Int64) {
        try await database.transaction { db in
            try await db.raw(
                """
                INSERT INTO dual_players (user_id, player, data, updated_at)
                VALUES (\(bind: user.description), \(bind: kind.rawValue), \(bind: data), \(bind: updatedAt))
                ON CONFLICT (user_id, player) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at
                WHERE excluded.updated_at > dual_players.updated_at
                """
            ).run()
            let row = try await db.raw(
                "SELECT data, updated_at FROM dual_players WHERE user_id = \(bind: user.description) AND player = \(bind: kind.rawValue)"
            ).first()
            guard let row else { return (data, updatedAt) }
            return (try row.decode(column: "data", as: String.self), try row.decode(column: "updated_at", as: Int64.self))
        }
    }

    /// Every position `user` has saved for items whose key starts with `prefix` (such as
    /// "book:", a book's whole-file and per-chapter keys alike).
    public func positions(of user: UserID, startingWith prefix: String) async throws -> [String: SavedPosition] {
        try await database.withConnection { db in
            let rows = try await db.raw(
                "SELECT item, seconds, updated_at FROM dual_positions WHERE user_id = \(bind: user.description) AND item LIKE \(bind: prefix + "%")"
            ).all()
            var out: [String: SavedPosition] = [:]
            for row in rows {
                out[try row.decode(column: "item", as: String.self)] = SavedPosition(
                    seconds: try row.decode(column: "seconds", as: Double.self), updatedAt: try row.decode(column: "updated_at", as: Int64.self))
            }
            return out
        }
    }

    public func positions(of user: UserID, items: [String]) async throws -> [String: SavedPosition] {
        guard !items.isEmpty else { return [:] }
        return try await database.withConnection { db in
            let list = SQLList(items.map { SQLBind($0) })
            let rows = try await db.raw("SELECT item, seconds, updated_at FROM dual_positions WHERE user_id = \(bind: user.description) AND item IN (\(list))")
                .all()
            var out: [String: SavedPosition] = [:]
            for row in rows {
                out[try row.decode(column: "item", as: String.self)] = SavedPosition(
                    seconds: try row.decode(column: "seconds", as: Double.self), updatedAt: try row.decode(column: "updated_at", as: Int64.self))
            }
            return out
        }
    }

    /// Saves each position unless a newer one is stored; returns the positions kept.
    public func save(_ positions: [String: SavedPosition], of user: UserID) async throws -> [String: SavedPosition] {
        guard !positions.isEmpty else { return [:] }
        try await database.transaction { db in
            for (item, position) in positions.sorted(by: { $0.key < $1.key }) {
                try await db.raw(
                    """
                    INSERT INTO dual_positions (user_id, item, seconds, updated_at)
                    VALUES (\(bind: user.description), \(bind: item), \(bind: position.seconds), \(bind: position.updatedAt))
                    ON CONFLICT (user_id, item) DO UPDATE SET seconds = excluded.seconds, updated_at = excluded.updated_at
                    WHERE excluded.updated_at > dual_positions.updated_at
                    """
                ).run()
            }
        }
        return try await self.positions(of: user, items: Array(positions.keys))
    }
}
