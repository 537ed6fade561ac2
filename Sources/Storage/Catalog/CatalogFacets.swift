import SQLKit

/// The genres and years of the library with their numbers of tracks, kept as rows so that
/// the lists are read from their key, never counted by grouping every track. A scan recounts
/// only the genres and years its tracks had or have, each through the index its filter uses.
enum CatalogFacets {
    /// Platform migration 9 (filled by migration 10, see `CatalogSchema.migrate`). The column sorts bytewise on PostgreSQL as on SQLite, so both
    /// list in one order.
    static func migrate(_ db: any SQLDatabase) async throws {
        let key = CatalogSchema.isPostgres(db) ? "TEXT COLLATE \"C\"" : "TEXT"
        try await CatalogSchema.run(
            [
                """
                CREATE TABLE catalog_facets (
                    kind TEXT NOT NULL,
                    value \(key) NOT NULL,
                    track_count BIGINT NOT NULL,
                    PRIMARY KEY (kind, value)
                )
                """
            ], on: db)
    }

    /// A list, in value order, read from the table's key.
    static func listQuery(_ kind: LibraryStore.Facet) -> SQLQueryString {
        "SELECT value, track_count FROM catalog_facets WHERE kind = \(bind: kind.rawValue) ORDER BY value"
    }

    /// A genre's tracks counted through the folded genre's index (the exact spelling is what
    /// is listed).
    static func countQuery(genre: String) -> SQLQueryString {
        "SELECT COUNT(*) AS n FROM tracks WHERE genre_key = \(bind: CatalogKeys.genre(genre)) AND genre = \(bind: genre)"
    }

    static func countQuery(year: Int) -> SQLQueryString { "SELECT COUNT(*) AS n FROM tracks WHERE year = \(bind: year)" }

    /// Counts these genres and years again (in the scan's transaction): a row for each that
    /// tracks still have, none for one no track has now.
    static func refresh(genres: Set<String>, years: Set<Int>, on db: any SQLDatabase) async throws {
        for genre in genres.sorted() {
            let count = try await db.raw(countQuery(genre: genre)).first()?.decode(column: "n", as: Int.self) ?? 0
            try await store(.genre, value: genre, count: count, on: db)
        }
        for year in years.sorted() {
            let count = try await db.raw(countQuery(year: year)).first()?.decode(column: "n", as: Int.self) ?? 0
            try await store(.year, value: String(year), count: count, on: db)
        }
    }

    static func store(_ kind: LibraryStore.Facet, value: String, count: Int, on db: any SQLDatabase) async throws {
        guard count > 0 else {
            try await db.raw("DELETE FROM catalog_facets WHERE kind = \(bind: kind.rawValue) AND value = \(bind: value)").run()
            return
        }
        try await db.raw(
            """
            INSERT INTO catalog_facets (kind, value, track_count) VALUES (\(bind: kind.rawValue), \(bind: value), \(bind: count))
            ON CONFLICT (kind, value) DO UPDATE SET track_count = excluded.track_count
            """
        ).run()
    }

    /// Every genre and year counted from the tracks (the migration that fills the catalog).
    static func rebuild(on db: any SQLDatabase) async throws {
        try await CatalogSchema.run(
            [
                "DELETE FROM catalog_facets",
                "INSERT INTO catalog_facets (kind, value, track_count) SELECT 'genre', genre, COUNT(*) FROM tracks WHERE genre IS NOT NULL GROUP BY genre",
                """
                INSERT INTO catalog_facets (kind, value, track_count)
                SELECT 'year', CAST(year AS TEXT), COUNT(*) FROM tracks WHERE year IS NOT NULL GROUP BY year
                """,
            ], on: db)
    }
}
