public import JukeCore
import SQLKit

/// What the catalog itself knows of an artist's or a song's neighbours, for the Subsonic
/// methods other servers answer from an outside service (top songs, similar songs and
/// artists): plays counted here, and shared genres.
extension LibraryStore {
    /// An artist's tracks, the most played first (then the most lately played), then the
    /// rest in album order: a player's "top songs" of an artist from plays in Juke.
    public func mostPlayedTracks(artistID: ArtistID, limit: Int) async throws -> [Track] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT * FROM tracks WHERE artist_id = \(bind: artistID.description)
                ORDER BY play_count DESC, COALESCE(last_played_at, 0) DESC, order_artist, id LIMIT \(bind: limit)
                """
            ).all().map(Self.track)
        }
    }

    /// The artists whose songs share genres with this artist's, those sharing the most songs
    /// first (the artist itself left out).
    public func artistsSharingGenres(with artistID: ArtistID, limit: Int) async throws -> [ArtistSummary] {
        try await database.withConnection { db in
            let rows = try await db.raw(
                """
                SELECT artists.id, artists.name, artists.track_count, artists.album_count, shared.n FROM (
                    SELECT artist_id, COUNT(*) AS n FROM tracks
                    WHERE genre_key IN (SELECT genre_key FROM tracks WHERE artist_id = \(bind: artistID.description) AND genre_key IS NOT NULL)
                        AND artist_id <> \(bind: artistID.description)
                    GROUP BY artist_id
                ) shared JOIN artists ON artists.id = shared.artist_id
                ORDER BY shared.n DESC, artists.order_name, artists.id LIMIT \(bind: limit)
                """
            ).all()
            return try rows.map { row in
                ArtistSummary(
                    id: try decodeID(row, "id"), name: try row.decode(column: "name", as: String.self),
                    trackCount: try row.decode(column: "track_count", as: Int.self), albumCount: try row.decode(column: "album_count", as: Int.self))
            }
        }
    }
}
