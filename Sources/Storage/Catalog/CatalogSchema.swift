import SQLKit

/// The catalog's tables and order keys (platform migration 7). Written as code because one
/// spelling differs: on PostgreSQL the key columns compare bytewise (`COLLATE "C"`), as
/// SQLite's do, so both read pages in the same order.
enum CatalogSchema {
    static func statements(postgres: Bool) -> [String] {
        let key = postgres ? "TEXT COLLATE \"C\"" : "TEXT"
        return [
            // Each track's keys: artist order, its album's order, newest first; its genre folded.
            "ALTER TABLE tracks ADD COLUMN order_artist \(key)",
            "ALTER TABLE tracks ADD COLUMN order_album \(key)",
            "ALTER TABLE tracks ADD COLUMN order_newest \(key)",
            "ALTER TABLE tracks ADD COLUMN genre_key \(key)",
            // The album and artist indexes now carry the order their pages are read in.
            "DROP INDEX tracks_album",
            "DROP INDEX tracks_artist",
            "CREATE INDEX tracks_album_order ON tracks(album_id, order_album)",
            "CREATE INDEX tracks_artist_order ON tracks(artist_id, order_artist)",
            "CREATE INDEX tracks_order_artist ON tracks(order_artist)",
            "CREATE INDEX tracks_order_newest ON tracks(order_newest)",
            "CREATE INDEX tracks_genre_order ON tracks(genre_key, order_artist)",
            "CREATE INDEX tracks_year_order ON tracks(year, order_artist)",
            """
            CREATE TABLE albums (
                id TEXT PRIMARY KEY,
                title TEXT NOT NULL,
                artist TEXT NOT NULL,
                artist_id TEXT NOT NULL,
                track_count BIGINT NOT NULL,
                duration DOUBLE PRECISION NOT NULL,
                year_min BIGINT,
                year_max BIGINT,
                genre TEXT,
                genre_key \(key),
                artwork_track_id TEXT,
                artwork_hash TEXT,
                added_at DOUBLE PRECISION NOT NULL,
                play_count BIGINT NOT NULL DEFAULT 0,
                last_played_at DOUBLE PRECISION,
                order_artist \(key) NOT NULL,
                order_name \(key) NOT NULL,
                order_year \(key) NOT NULL,
                order_newest \(key) NOT NULL
            )
            """,
            "CREATE INDEX albums_artist ON albums(artist_id)",
            "CREATE INDEX albums_order_artist ON albums(order_artist)",
            "CREATE INDEX albums_order_name ON albums(order_name)",
            "CREATE INDEX albums_order_year ON albums(order_year)",
            "CREATE INDEX albums_order_newest ON albums(order_newest)",
            "CREATE INDEX albums_genre_name ON albums(genre_key, order_name)",
            """
            CREATE TABLE artists (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                track_count BIGINT NOT NULL,
                album_count BIGINT NOT NULL,
                order_name \(key) NOT NULL
            )
            """,
            "CREATE INDEX artists_order_name ON artists(order_name)",
            // The library's totals, so a page's total is read, not counted.
            "ALTER TABLE library_generation ADD COLUMN track_count BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE library_generation ADD COLUMN album_count BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE library_generation ADD COLUMN artist_count BIGINT NOT NULL DEFAULT 0",
        ]
    }

    /// Adds the catalog's tables. They are filled by the newest migration that changes them
    /// (`CatalogMaintenance.addSearchWords`): filled here, the rows would be made by today's code before
    /// the later migrations add the columns that code writes.
    static func migrate(_ db: any SQLDatabase) async throws {
        try await run(statements(postgres: isPostgres(db)), on: db)
    }

    static func isPostgres(_ db: any SQLDatabase) -> Bool { db.dialect.name == "postgresql" }

    static func run(_ statements: [String], on db: any SQLDatabase) async throws {
        for statement in statements {
            try await db.raw(SQLQueryString(statement)).run()
        }
    }
}
