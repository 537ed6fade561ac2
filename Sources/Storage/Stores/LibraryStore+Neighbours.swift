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

/// The songs' words the scan keeps from their tags (`track_lyrics`).
extension LibraryStore {
    public struct StoredLyrics: Sendable, Equatable {
        public let track: TrackID
        /// Plain text, or LRC text when the tag was synced.
        public let text: String
        public let language: String?
    }

    public func lyrics(track: TrackID) async throws -> StoredLyrics? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM track_lyrics WHERE track_id = \(bind: track.description)").first().map(Self.lyrics)
        }
    }

    /// The lyrics of a song by an artist and a title (as players ask for them by name): the
    /// artist as its id is made (case and accents folded), the title without case.
    public func lyrics(artist: String?, title: String?) async throws -> StoredLyrics? {
        var conditions: [SQLQueryString] = []
        if let artist { conditions.append("tracks.artist_id = \(bind: StableID.artist(named: artist).description)") }
        if let title { conditions.append("LOWER(tracks.title) = \(bind: title.lowercased())") }
        guard !conditions.isEmpty else { return nil }
        let query: SQLQueryString =
            "SELECT track_lyrics.* FROM track_lyrics JOIN tracks ON tracks.id = track_lyrics.track_id WHERE "
            + conditions.joined(separator: " AND ") + " ORDER BY tracks.order_artist, tracks.id LIMIT 1"
        return try await database.withConnection { db in try await db.raw(query).first().map(Self.lyrics) }
    }

    static func lyrics(_ row: any SQLRow) throws -> StoredLyrics {
        StoredLyrics(
            track: try decodeID(row, "track_id"), text: try row.decode(column: "lyrics", as: String.self),
            language: try row.decode(column: "language", as: String?.self))
    }
}
