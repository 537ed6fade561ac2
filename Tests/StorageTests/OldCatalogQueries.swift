/// The catalog's page queries before albums and artists were kept as rows (issue 51), word
/// for word: the plan test proves its check catches them, the benchmark times them beside
/// the new ones.
enum OldCatalogQueries {
    static func albums(limit: Int, offset: Int) -> String {
        """
        SELECT album_id, MIN(album) AS title, MIN(album_artist) AS artist, MIN(year) AS year, COUNT(*) AS track_count,
               SUM(duration) AS duration, MIN(CASE WHEN artwork_hash IS NOT NULL THEN id END) AS artwork_track
        FROM tracks GROUP BY album_id ORDER BY LOWER(MIN(album_artist)), LOWER(MIN(album)) LIMIT \(limit) OFFSET \(offset)
        """
    }

    static func artists(limit: Int, offset: Int) -> String {
        """
        SELECT artist_id, MIN(artist) AS name, COUNT(*) AS track_count, COUNT(DISTINCT album_id) AS album_count
        FROM tracks GROUP BY artist_id ORDER BY LOWER(MIN(artist)) LIMIT \(limit) OFFSET \(offset)
        """
    }

    static let artistOrder = "LOWER(artist), LOWER(album), COALESCE(disc_number, 1), COALESCE(track_number, 0), LOWER(title), id"

    static func tracks(limit: Int, offset: Int) -> String {
        "SELECT * FROM tracks ORDER BY \(artistOrder) LIMIT \(limit) OFFSET \(offset)"
    }

    static func newestTracks(limit: Int, offset: Int) -> String {
        "SELECT * FROM tracks ORDER BY added_at DESC, \(artistOrder) LIMIT \(limit) OFFSET \(offset)"
    }

    /// Each page also counted its rows.
    static let albumCount = "SELECT COUNT(DISTINCT album_id) AS n FROM tracks"
    static let artistCount = "SELECT COUNT(DISTINCT artist_id) AS n FROM tracks"

    /// The genres and years were counted from every track on each request.
    static let genres = "SELECT genre AS value, COUNT(*) AS n FROM tracks WHERE genre IS NOT NULL GROUP BY genre ORDER BY genre"
    static let years =
        "SELECT CAST(year AS TEXT) AS value, COUNT(*) AS n FROM tracks WHERE year IS NOT NULL GROUP BY CAST(year AS TEXT) ORDER BY CAST(year AS TEXT)"

    static func all(limit: Int, offset: Int) -> [(String, String)] {
        [
            ("albums", albums(limit: limit, offset: offset)), ("artists", artists(limit: limit, offset: offset)),
            ("tracks", tracks(limit: limit, offset: offset)), ("newest tracks", newestTracks(limit: limit, offset: offset)),
            ("genres", genres), ("years", years),
        ]
    }
}
