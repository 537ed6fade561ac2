public import Foundation
public import JukeCore
public import SQLKit

/// How often and how lately each album was played, for the "most played" and "recently
/// played" album lists (OpenSubsonic's `frequent` and `recent`). Plays are counted on the
/// track (so they follow it when a retag moves it to another album) and summed into its
/// album's row, whose order keys for those lists are indexed like the others.
public enum CatalogPlays {
    /// Platform migration 8: the columns and their indexes (filled by the migration after,
    /// see `CatalogSchema.migrate`).
    static func migrate(_ db: any SQLDatabase) async throws {
        let key = CatalogSchema.isPostgres(db) ? "TEXT COLLATE \"C\"" : "TEXT"
        try await CatalogSchema.run(
            [
                "ALTER TABLE tracks ADD COLUMN play_count BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE tracks ADD COLUMN last_played_at DOUBLE PRECISION",
                // NULL while the album was never played: it is in neither list.
                "ALTER TABLE albums ADD COLUMN order_frequent \(key)",
                "ALTER TABLE albums ADD COLUMN order_recent \(key)",
                "CREATE INDEX albums_order_frequent ON albums(order_frequent)",
                "CREATE INDEX albums_order_recent ON albums(order_recent)",
            ], on: db)
    }

    /// One play of a library track.
    public struct Play: Sendable, Equatable {
        public let track: TrackID
        public let at: Date
        public init(track: TrackID, at: Date) {
            self.track = track
            self.at = at
        }
    }

    /// Counts these plays on their tracks and recomputes the albums they belong to, in the
    /// caller's transaction. A track no longer in the library is passed over. Used as plays
    /// happen and by the apps' migrations that count the plays they recorded before.
    public static func record(_ plays: [Play], on db: any SQLDatabase) async throws {
        guard !plays.isEmpty else { return }
        var byTrack: [String: (count: Int, last: Double)] = [:]
        for play in plays {
            let seen = byTrack[play.track.description]
            byTrack[play.track.description] = ((seen?.count ?? 0) + 1, max(seen?.last ?? -Double.infinity, play.at.timeIntervalSince1970))
        }
        for (id, play) in byTrack.sorted(by: { $0.key < $1.key }) {
            try await db.raw(
                """
                UPDATE tracks SET play_count = play_count + \(bind: play.count),
                    last_played_at = CASE WHEN last_played_at IS NULL OR last_played_at < \(bind: play.last) THEN \(bind: play.last) ELSE last_played_at END
                WHERE id = \(bind: id)
                """
            ).run()
        }
        let owners = try await CatalogMaintenance.owners(on: db, column: "id", values: Array(byTrack.keys))
        try await CatalogMaintenance.refresh(albums: owners.albums, artists: [], on: db)
        // The most and recently played orders moved: their deep pages' checkpoints are read
        // again (CatalogCheckpoints); the library's own generation stays.
        try await db.raw("UPDATE library_generation SET plays_generation = plays_generation + 1 WHERE id = 1").run()
    }
}
