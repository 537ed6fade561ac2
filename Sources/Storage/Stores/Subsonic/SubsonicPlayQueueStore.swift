public import Foundation
public import JukeCore
import SQLKit

/// The play queue each account carries from one Subsonic player to the next: its songs in
/// order (one may be there twice), which one is playing and how far into it, when and by
/// which player it was saved. One per account.
public struct SubsonicPlayQueueStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    public struct Queue: Sendable, Equatable {
        public var trackIDs: [String]
        public var currentIndex: Int?
        public var positionMillis: Int
        public var changedAt: Date
        public var changedBy: String

        public init(trackIDs: [String], currentIndex: Int?, positionMillis: Int, changedAt: Date, changedBy: String) {
            self.trackIDs = trackIDs
            self.currentIndex = currentIndex
            self.positionMillis = positionMillis
            self.changedAt = changedAt
            self.changedBy = changedBy
        }
    }

    /// The most songs a saved queue keeps.
    public static let maxSongs = 10_000

    /// Saves the account's queue; an empty one clears it.
    public func save(_ queue: Queue, user: UserID) async throws {
        try await database.withConnection { db in
            guard !queue.trackIDs.isEmpty else {
                try await db.raw("DELETE FROM subsonic_play_queues WHERE user_id = \(bind: user.description)").run()
                return
            }
            try await db.raw(
                """
                INSERT INTO subsonic_play_queues (user_id, track_ids, current_index, position_ms, changed_at, changed_by)
                VALUES (\(bind: user.description), \(bind: queue.trackIDs.joined(separator: ",")), \(bind: queue.currentIndex),
                        \(bind: queue.positionMillis), \(bind: queue.changedAt.timeIntervalSince1970), \(bind: queue.changedBy))
                ON CONFLICT (user_id) DO UPDATE SET track_ids = excluded.track_ids, current_index = excluded.current_index,
                    position_ms = excluded.position_ms, changed_at = excluded.changed_at, changed_by = excluded.changed_by
                """
            ).run()
        }
    }

    public func queue(user: UserID) async throws -> Queue? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM subsonic_play_queues WHERE user_id = \(bind: user.description)").first().map { row in
                Queue(
                    trackIDs: try row.decode(column: "track_ids", as: String.self).split(separator: ",").map(String.init),
                    currentIndex: try row.decode(column: "current_index", as: Int?.self),
                    positionMillis: try row.decode(column: "position_ms", as: Int.self),
                    changedAt: Date(timeIntervalSince1970: try row.decode(column: "changed_at", as: Double.self)),
                    changedBy: try row.decode(column: "changed_by", as: String.self))
            }
        }
    }
}
