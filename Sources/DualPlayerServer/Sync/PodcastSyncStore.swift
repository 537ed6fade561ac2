import DualPlayer
import Foundation
import JukeCore
import SQLKit
import Storage

/// Podcast sync's rows (Dual Player migration 11): devices, sessions, each account's clock,
/// the last change of each subscribed feed, and episode actions.
public struct PodcastSyncStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    // MARK: The account's clock

    /// A timestamp later than any given to this account before, and not before `now` (whole
    /// seconds, as gpodder.net's): taken by every change, in one statement.
    func nextStamp(_ user: UserID, now: Date, on db: any SQLDatabase) async throws -> Int64 {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let row = try await db.raw(
            """
            INSERT INTO dual_sync_clocks (user_id, stamp) VALUES (\(bind: user.description), \(bind: seconds))
            ON CONFLICT (user_id) DO UPDATE SET stamp = CASE WHEN dual_sync_clocks.stamp + 1 > excluded.stamp
                THEN dual_sync_clocks.stamp + 1 ELSE excluded.stamp END
            RETURNING stamp
            """
        ).first()
        return try row?.decode(column: "stamp", as: Int64.self) ?? seconds
    }

    /// The timestamp a download answers: everything stored so far is at or before it, and
    /// every change after it takes a later one (the second before now: a change later in this
    /// very second still comes after it). Read only.
    func currentStamp(_ user: UserID, now: Date) async throws -> Int64 {
        let before = Int64(now.timeIntervalSince1970.rounded(.down)) - 1
        let last = try await database.withConnection { db in
            try await db.raw("SELECT stamp FROM dual_sync_clocks WHERE user_id = \(bind: user.description)").first()?.decode(column: "stamp", as: Int64.self)
        }
        return max(before, last ?? 0)
    }

    // MARK: Devices

    public struct Device: Sendable, Equatable {
        public var id: String
        public var caption: String
        public var type: String
    }

    func devices(of user: UserID) async throws -> [Device] {
        try await database.withConnection { db in
            try await db.raw("SELECT device_id, caption, type FROM dual_sync_devices WHERE user_id = \(bind: user.description) ORDER BY device_id").all().map {
                Device(
                    id: try $0.decode(column: "device_id", as: String.self), caption: try $0.decode(column: "caption", as: String.self),
                    type: try $0.decode(column: "type", as: String.self))
            }
        }
    }

    func countDevices(of user: UserID) async throws -> Int {
        try await database.withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM dual_sync_devices WHERE user_id = \(bind: user.description)").first()?.decode(column: "n", as: Int.self)
                ?? 0
        }
    }

    /// Creates the device or changes what is given of it (nil: kept).
    func saveDevice(_ id: String, caption: String?, type: String?, of user: UserID, now: Date) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO dual_sync_devices (user_id, device_id, caption, type, updated_at)
                VALUES (\(bind: user.description), \(bind: id), \(bind: caption ?? ""), \(bind: type ?? "other"), \(bind: now.timeIntervalSince1970))
                ON CONFLICT (user_id, device_id) DO UPDATE SET
                    caption = CASE WHEN \(bind: caption == nil) THEN dual_sync_devices.caption ELSE excluded.caption END,
                    type = CASE WHEN \(bind: type == nil) THEN dual_sync_devices.type ELSE excluded.type END,
                    updated_at = excluded.updated_at
                """
            ).run()
        }
    }

    func hasDevice(_ id: String, of user: UserID) async throws -> Bool {
        try await database.withConnection { db in
            try await db.raw("SELECT 1 AS one FROM dual_sync_devices WHERE user_id = \(bind: user.description) AND device_id = \(bind: id)").first() != nil
        }
    }

    // MARK: Sessions

    /// Adds a session; the account's oldest beyond `keep` are removed.
    func addSession(tokenHash: String, user: UserID, expiresAt: Date, keep: Int) async throws {
        try await database.transaction { db in
            try await db.raw(
                """
                INSERT INTO dual_sync_sessions (token_hash, user_id, expires_at)
                VALUES (\(bind: tokenHash), \(bind: user.description), \(bind: expiresAt.timeIntervalSince1970))
                """
            ).run()
            try await db.raw(
                """
                DELETE FROM dual_sync_sessions WHERE user_id = \(bind: user.description) AND token_hash NOT IN (
                    SELECT token_hash FROM dual_sync_sessions WHERE user_id = \(bind: user.description)
                    ORDER BY expires_at DESC, token_hash LIMIT \(bind: keep))
                """
            ).run()
        }
    }

    /// Whose the session is, while it lasts.
    func sessionUser(tokenHash: String, now: Date) async throws -> UserID? {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT user_id FROM dual_sync_sessions WHERE token_hash = \(bind: tokenHash) AND expires_at > \(bind: now.timeIntervalSince1970)
                """
            ).first().flatMap { UserID(try $0.decode(column: "user_id", as: String.self)) }
        }
    }

    /// Ends the session, and any of the account's that have expired.
    func removeSession(tokenHash: String, user: UserID, now: Date) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                DELETE FROM dual_sync_sessions WHERE user_id = \(bind: user.description)
                    AND (token_hash = \(bind: tokenHash) OR expires_at <= \(bind: now.timeIntervalSince1970))
                """
            ).run()
        }
    }

    // MARK: Subscription changes

    /// Records that `feedURL` was added to or removed from the account's shows, unless that is
    /// already its last change (a show followed twice is one change).
    func recordChange(_ user: UserID, feedURL: String, added: Bool, device: String?, now: Date) async throws -> Int64 {
        try await database.transaction { db in
            let last = try await db.raw(
                "SELECT added, stamp FROM dual_subscription_changes WHERE user_id = \(bind: user.description) AND feed_url = \(bind: feedURL)"
            ).first()
            if let last, try last.decode(column: "added", as: Bool.self) == added { return try last.decode(column: "stamp", as: Int64.self) }
            let stamp = try await nextStamp(user, now: now, on: db)
            try await db.raw(
                """
                INSERT INTO dual_subscription_changes (user_id, feed_url, added, device_id, stamp)
                VALUES (\(bind: user.description), \(bind: feedURL), \(bind: added), \(bind: device), \(bind: stamp))
                ON CONFLICT (user_id, feed_url) DO UPDATE SET added = excluded.added, device_id = excluded.device_id, stamp = excluded.stamp
                """
            ).run()
            return stamp
        }
    }

    /// The last change of each feed changed after `since`.
    func changes(of user: UserID, since: Int64) async throws -> [(feedURL: String, added: Bool)] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT feed_url, added FROM dual_subscription_changes WHERE user_id = \(bind: user.description) AND stamp > \(bind: since)
                ORDER BY stamp, feed_url
                """
            ).all().map { (try $0.decode(column: "feed_url", as: String.self), try $0.decode(column: "added", as: Bool.self)) }
        }
    }

    // MARK: Episode actions

    /// Keeps each action unless a newer one of its kind is stored for the episode; all take
    /// one new timestamp, returned.
    func save(
        _ actions: [(action: GpodderWire.Action, positionItem: String?, positionUpdatedAt: Int64?)], of user: UserID, now: Date
    ) async throws -> Int64 {
        try await database.transaction { db in
            let stamp = try await nextStamp(user, now: now, on: db)
            for entry in actions {
                let a = entry.action
                try await db.raw(
                    """
                    INSERT INTO dual_episode_actions (user_id, episode_url, action, podcast_url, guid, device_id, happened_at, started, position, total,
                        position_item, position_updated_at, stamp)
                    VALUES (\(bind: user.description), \(bind: a.episode), \(bind: a.action), \(bind: a.podcast), \(bind: a.guid), \(bind: a.device),
                        \(bind: a.timestamp.timeIntervalSince1970), \(bind: a.started), \(bind: a.position), \(bind: a.total),
                        \(bind: entry.positionItem), \(bind: entry.positionUpdatedAt), \(bind: stamp))
                    ON CONFLICT (user_id, episode_url, action) DO UPDATE SET podcast_url = excluded.podcast_url, guid = excluded.guid,
                        device_id = excluded.device_id, happened_at = excluded.happened_at, started = excluded.started, position = excluded.position,
                        total = excluded.total, position_item = excluded.position_item, position_updated_at = excluded.position_updated_at,
                        stamp = excluded.stamp
                    WHERE excluded.happened_at >= dual_episode_actions.happened_at
                    """
                ).run()
            }
            return stamp
        }
    }

    /// Actions stored after `since`, oldest first, optionally of one show or one device.
    func actions(of user: UserID, since: Int64, podcast: String?, device: String?) async throws -> [GpodderWire.Action] {
        try await database.withConnection { db in
            var query: SQLQueryString = "SELECT * FROM dual_episode_actions WHERE user_id = \(bind: user.description) AND stamp > \(bind: since)"
            if let podcast { query += " AND podcast_url = \(bind: podcast)" }
            if let device { query += " AND device_id = \(bind: device)" }
            query += " ORDER BY stamp, happened_at, episode_url"
            return try await db.raw(query).all().map { row in
                GpodderWire.Action(
                    podcast: try row.decode(column: "podcast_url", as: String.self), episode: try row.decode(column: "episode_url", as: String.self),
                    guid: try row.decode(column: "guid", as: String?.self), device: try row.decode(column: "device_id", as: String?.self),
                    action: try row.decode(column: "action", as: String.self),
                    timestamp: Date(timeIntervalSince1970: try row.decode(column: "happened_at", as: Double.self)),
                    started: try row.decode(column: "started", as: Int?.self), position: try row.decode(column: "position", as: Int?.self),
                    total: try row.decode(column: "total", as: Int?.self))
            }
        }
    }

    /// Episode positions saved in Dual Player (not by a play action) after `sinceMillis`, with
    /// what a play action names: the show's feed, the episode's audio and guid, its length.
    func pagePositions(of user: UserID, sinceMillis: Int64, podcast: String?) async throws -> [(
        feedURL: String, episode: Episode, position: SavedPosition
    )] {
        try await database.withConnection { db in
            var query: SQLQueryString = """
                SELECT e.*, p.feed_url, pos.seconds AS saved_seconds, pos.updated_at AS saved_at FROM dual_positions pos
                JOIN dual_episodes e ON pos.item = 'episode:' || e.id
                JOIN dual_podcasts p ON p.id = e.podcast_id
                WHERE pos.user_id = \(bind: user.description) AND pos.item LIKE 'episode:%' AND pos.updated_at > \(bind: sinceMillis)
                AND NOT EXISTS (SELECT 1 FROM dual_episode_actions a WHERE a.user_id = pos.user_id AND a.position_item = pos.item
                    AND a.position_updated_at = pos.updated_at)
                """
            if let podcast { query += " AND p.feed_url = \(bind: podcast)" }
            query += " ORDER BY pos.updated_at"
            return try await db.raw(query).all().map { row in
                (
                    try row.decode(column: "feed_url", as: String.self), try PodcastStore.episode(row),
                    SavedPosition(
                        seconds: try row.decode(column: "saved_seconds", as: Double.self), updatedAt: try row.decode(column: "saved_at", as: Int64.self))
                )
            }
        }
    }
}
