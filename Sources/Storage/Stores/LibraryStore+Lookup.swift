public import JukeCore
import SQLKit

extension LibraryStore {
    /// One album's row, by its ID (a player asking for an album it listed before).
    public func album(id: AlbumID) async throws -> AlbumSummary? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM albums WHERE id = \(bind: id.description)").first().map(Self.album)
        }
    }

    /// One artist's row, by its ID.
    public func artist(id: ArtistID) async throws -> ArtistSummary? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM artists WHERE id = \(bind: id.description)").first().map { row in
                ArtistSummary(
                    id: try decodeID(row, "id"), name: try row.decode(column: "name", as: String.self),
                    trackCount: try row.decode(column: "track_count", as: Int.self), albumCount: try row.decode(column: "album_count", as: Int.self))
            }
        }
    }

    /// How many albums have each main genre, by the genre's exact spelling (Subsonic's genre
    /// list gives both numbers).
    public func albumCountsByGenre() async throws -> [String: Int] {
        try await database.withConnection { db in
            var counts: [String: Int] = [:]
            for row in try await db.raw("SELECT genre, COUNT(*) AS n FROM albums WHERE genre IS NOT NULL GROUP BY genre").all() {
                counts[try row.decode(column: "genre", as: String.self)] = try row.decode(column: "n", as: Int.self)
            }
            return counts
        }
    }

    /// A random sample of tracks, optionally of one genre and a range of years: a random
    /// point of the track IDs (random UUIDs) and on from there, as the album list does, so no
    /// sort of the library is read. `start` is an ID-shaped text.
    public func randomTracks(limit: Int, start: String, genre: String? = nil, years: ClosedRange<Int>? = nil) async throws -> [Track] {
        var filter: [SQLQueryString] = []
        if let genre { filter.append("genre_key = \(bind: CatalogKeys.genre(genre))") }
        if let years { filter.append("year >= \(bind: years.lowerBound) AND year <= \(bind: years.upperBound)") }
        let conditions = filter
        return try await database.withConnection { db in
            var rows = try await db.raw(
                Self.pageQuery(
                    table: "tracks", column: "id", conditions: conditions + ["id >= \(bind: start)"], after: nil, descending: false, limit: limit, offset: 0)
            ).all()
            if rows.count < limit {
                rows += try await db.raw(
                    Self.pageQuery(
                        table: "tracks", column: "id", conditions: conditions + ["id < \(bind: start)"], after: nil, descending: false,
                        limit: limit - rows.count,
                        offset: 0)
                ).all()
            }
            return try rows.map(Self.track)
        }
    }
}
