import Foundation
import JukeCore
import SQLKit

/// Keeps the catalog's `albums` and `artists` rows in step with the tracks they are made
/// from. It runs inside the transaction that changed the tracks, and recomputes only the
/// albums and artists that change touched, each from its own tracks (read by index), so a
/// page of albums reads stored rows instead of grouping every track.
enum CatalogMaintenance {
    /// At most this many values in one `IN (...)` list (well under both databases' limits).
    static let chunk = 500

    /// An `IN (...)` list of bound values.
    static func inList(_ values: some Collection<String>) -> SQLQueryString {
        var out: SQLQueryString = "("
        for (i, value) in values.enumerated() {
            if i > 0 { out = out + ", " }
            out = out + "\(bind: value)"
        }
        return out + ")"
    }

    static func chunks(_ values: Set<String>) -> [[String]] {
        let sorted = values.sorted()
        return stride(from: 0, to: sorted.count, by: chunk).map { Array(sorted[$0..<min($0 + chunk, sorted.count)]) }
    }

    /// What a change to some tracks touches: the albums, artists, genres and years they had
    /// or have, each recomputed after the change.
    struct Touched {
        var albums = Set<String>()
        var artists = Set<String>()
        var genres = Set<String>()
        var years = Set<Int>()

        mutating func formUnion(_ other: Touched) {
            albums.formUnion(other.albums)
            artists.formUnion(other.artists)
            genres.formUnion(other.genres)
            years.formUnion(other.years)
        }
    }

    /// The albums, artists, genres and years of the tracks with these IDs (or at these paths) now.
    static func owners(on db: any SQLDatabase, column: String, values: [String]) async throws -> Touched {
        var touched = Touched()
        for part in chunks(Set(values)) {
            let rows = try await db.raw(
                "SELECT album_id, artist_id, genre, year FROM tracks WHERE " + SQLQueryString(column) + " IN " + inList(part)
            ).all()
            for row in rows {
                touched.albums.insert(try row.decode(column: "album_id", as: String.self))
                touched.artists.insert(try row.decode(column: "artist_id", as: String.self))
                if let genre = try row.decode(column: "genre", as: String?.self) { touched.genres.insert(genre) }
                if let year = try row.decode(column: "year", as: Int?.self) { touched.years.insert(year) }
            }
        }
        return touched
    }

    /// Recomputes these albums and artists from their tracks: a row for each that still has
    /// tracks, none for one that lost its last.
    static func refresh(albums: Set<String>, artists: Set<String>, on db: any SQLDatabase) async throws {
        for part in chunks(albums) {
            let rows = try await db.raw(
                """
                SELECT id, album_id, album, album_artist, genre, year, duration, artwork_hash, added_at, play_count, last_played_at FROM tracks
                WHERE album_id IN
                """ + inList(part)
            ).all()
            var tracks: [String: [AlbumTrack]] = [:]
            for row in rows {
                let track = AlbumTrack(
                    id: try row.decode(column: "id", as: String.self),
                    album: try row.decode(column: "album", as: String.self),
                    albumArtist: try row.decode(column: "album_artist", as: String.self),
                    genre: try row.decode(column: "genre", as: String?.self),
                    year: try row.decode(column: "year", as: Int?.self),
                    duration: try row.decode(column: "duration", as: Double.self),
                    artworkHash: try row.decode(column: "artwork_hash", as: String?.self),
                    addedAt: try row.decode(column: "added_at", as: Double.self),
                    playCount: try row.decode(column: "play_count", as: Int.self),
                    lastPlayedAt: try row.decode(column: "last_played_at", as: Double?.self)
                )
                tracks[try row.decode(column: "album_id", as: String.self), default: []].append(track)
            }
            for id in part {
                guard let albumID = AlbumID(id), let album = AlbumRow(id: albumID, tracks: tracks[id] ?? []) else {
                    try await db.raw("DELETE FROM albums WHERE id = \(bind: id)").run()
                    continue
                }
                try await upsert(album, on: db)
            }
        }
        for part in chunks(artists) {
            let rows = try await db.raw("SELECT artist_id, artist, album_id FROM tracks WHERE artist_id IN " + inList(part)).all()
            var names: [String: [String]] = [:]
            var albumsOf: [String: Set<String>] = [:]
            for row in rows {
                let id = try row.decode(column: "artist_id", as: String.self)
                names[id, default: []].append(try row.decode(column: "artist", as: String.self))
                albumsOf[id, default: []].insert(try row.decode(column: "album_id", as: String.self))
            }
            for id in part {
                guard let artistID = ArtistID(id), let all = names[id], let name = all.min() else {
                    try await db.raw("DELETE FROM artists WHERE id = \(bind: id)").run()
                    continue
                }
                let key = CatalogKeys.artistByName(name: name, id: artistID)
                try await db.raw(
                    """
                    INSERT INTO artists (id, name, track_count, album_count, order_name)
                    VALUES (\(bind: id), \(bind: name), \(bind: all.count), \(bind: albumsOf[id]?.count ?? 0), \(bind: key))
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, track_count = excluded.track_count,
                        album_count = excluded.album_count, order_name = excluded.order_name
                    """
                ).run()
            }
        }
    }

    /// The library's totals, kept beside the generation so that a page need not count a table.
    static func refreshCounts(on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            UPDATE library_generation SET track_count = (SELECT COUNT(*) FROM tracks),
                album_count = (SELECT COUNT(*) FROM albums), artist_count = (SELECT COUNT(*) FROM artists)
            WHERE id = 1
            """
        ).run()
    }

    static func upsert(_ a: AlbumRow, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO albums (id, title, artist, artist_id, track_count, duration, year_min, year_max, genre, genre_key,
                artwork_track_id, artwork_hash, added_at, play_count, last_played_at, order_artist, order_name, order_year, order_newest,
                order_frequent, order_recent)
            VALUES (\(bind: a.id.description), \(bind: a.title), \(bind: a.artist), \(bind: a.artistID.description), \(bind: a.trackCount),
                \(bind: a.duration), \(bind: a.yearMin), \(bind: a.yearMax), \(bind: a.genre), \(bind: a.genreKey),
                \(bind: a.artworkTrackID), \(bind: a.artworkHash), \(bind: a.addedAt), \(bind: a.playCount), \(bind: a.lastPlayedAt),
                \(bind: a.orderArtist), \(bind: a.orderName), \(bind: a.orderYear), \(bind: a.orderNewest), \(bind: a.orderFrequent), \(bind: a.orderRecent))
            ON CONFLICT (id) DO UPDATE SET title = excluded.title, artist = excluded.artist, artist_id = excluded.artist_id,
                track_count = excluded.track_count, duration = excluded.duration, year_min = excluded.year_min,
                year_max = excluded.year_max, genre = excluded.genre, genre_key = excluded.genre_key,
                artwork_track_id = excluded.artwork_track_id, artwork_hash = excluded.artwork_hash, added_at = excluded.added_at,
                order_artist = excluded.order_artist, order_name = excluded.order_name, order_year = excluded.order_year,
                order_newest = excluded.order_newest, play_count = excluded.play_count, last_played_at = excluded.last_played_at,
                order_frequent = excluded.order_frequent, order_recent = excluded.order_recent
            """
        ).run()
    }

    /// Platform migration 10: each track's search words (`SearchText.storedWords`), then the
    /// whole catalog filled from the tracks.
    static func addSearchWords(_ db: any SQLDatabase) async throws {
        try await CatalogSchema.run(["ALTER TABLE tracks ADD COLUMN search_words TEXT"], on: db)
        try await rebuild(on: db)
    }

    /// Fills the catalog from the tracks already there (the migration that adds it): each
    /// track's order keys, then every album and artist, then the totals.
    static func rebuild(on db: any SQLDatabase) async throws {
        let rows = try await db.raw(
            "SELECT id, title, artist, album, album_artist, composer, genre, year, disc_number, track_number, added_at FROM tracks"
        ).all()
        var keyed: [(id: String, keys: TrackKeys)] = []
        keyed.reserveCapacity(rows.count)
        for row in rows {
            let id: TrackID = try decodeID(row, "id")
            let keys = TrackKeys(
                id: id, title: try row.decode(column: "title", as: String.self), artist: try row.decode(column: "artist", as: String.self),
                album: try row.decode(column: "album", as: String.self), albumArtist: try row.decode(column: "album_artist", as: String.self),
                composer: try row.decode(column: "composer", as: String?.self), genre: try row.decode(column: "genre", as: String?.self),
                year: try row.decode(column: "year", as: Int?.self), disc: try row.decode(column: "disc_number", as: Int?.self),
                track: try row.decode(column: "track_number", as: Int?.self),
                addedAt: Date(timeIntervalSince1970: try row.decode(column: "added_at", as: Double.self)))
            keyed.append((id.description, keys))
        }
        // The keys are made in Swift (names folded as a page sorts them); they are written a
        // chunk at a time, one statement each, not a statement a track: on PostgreSQL a round
        // trip each made a large library's migration take minutes.
        for start in stride(from: 0, to: keyed.count, by: chunk) {
            var values: SQLQueryString = ""
            for (i, row) in keyed[start..<min(start + chunk, keyed.count)].enumerated() {
                let k = row.keys
                values =
                    values + (i == 0 ? "" : ", ")
                    + "(\(bind: row.id), \(bind: k.byArtist), \(bind: k.inAlbum), \(bind: k.newest), \(bind: k.genreKey), \(bind: k.words))"
            }
            try await db.raw(
                "WITH v (id, order_artist, order_album, order_newest, genre_key, search_words) AS (VALUES " + values
                    + """
                    )
                    UPDATE tracks SET order_artist = v.order_artist, order_album = v.order_album, order_newest = v.order_newest,
                        genre_key = v.genre_key, search_words = v.search_words
                    FROM v WHERE tracks.id = v.id
                    """
            ).run()
        }
        let albums = Set(try await db.raw("SELECT DISTINCT album_id FROM tracks").all().map { try $0.decode(column: "album_id", as: String.self) })
        let artists = Set(try await db.raw("SELECT DISTINCT artist_id FROM tracks").all().map { try $0.decode(column: "artist_id", as: String.self) })
        try await refresh(albums: albums, artists: artists, on: db)
        try await CatalogFacets.rebuild(on: db)
        try await refreshCounts(on: db)
    }
}

/// A track's stored order keys.
struct TrackKeys {
    let byArtist: String
    let inAlbum: String
    let newest: String
    let genreKey: String?
    /// The words a search finds it by, for the database's search.
    let words: String

    init(
        id: TrackID, title: String, artist: String, album: String, albumArtist: String, composer: String?, genre: String?, year: Int?, disc: Int?,
        track: Int?, addedAt: Date
    ) {
        byArtist = CatalogKeys.trackByArtist(artist: artist, album: album, disc: disc, track: track, title: title, id: id)
        inAlbum = CatalogKeys.trackInAlbum(disc: disc, track: track, title: title, id: id)
        newest = CatalogKeys.trackNewest(addedAt: addedAt, byArtist: byArtist)
        genreKey = genre.map(CatalogKeys.genre)
        words = SearchText.storedWords(of: [title, artist, album, albumArtist, composer, genre, year.map(String.init)])
    }

    init(_ t: Track, addedAt: Date) {
        self.init(
            id: t.id, title: t.title, artist: t.artist, album: t.album, albumArtist: t.albumArtist, composer: t.composer, genre: t.genre,
            year: t.year, disc: t.discNumber, track: t.trackNumber, addedAt: addedAt)
    }
}

/// What an album row is computed from: one of its tracks.
struct AlbumTrack {
    let id: String
    let album: String
    let albumArtist: String
    let genre: String?
    let year: Int?
    let duration: Double
    let artworkHash: String?
    let addedAt: Double
    let playCount: Int
    let lastPlayedAt: Double?
}

/// An album as stored: its tracks summed up.
struct AlbumRow {
    let id: AlbumID
    let title: String
    let artist: String
    let artistID: ArtistID
    let trackCount: Int
    let duration: Double
    let yearMin: Int?
    let yearMax: Int?
    /// The genre most of its tracks have (the first by key among equals).
    let genre: String?
    let genreKey: String?
    let artworkTrackID: String?
    let artworkHash: String?
    /// When its first track was added.
    let addedAt: Double
    let orderArtist: String
    let orderName: String
    let orderYear: String
    let orderNewest: String
    /// Its tracks' plays summed, and the latest.
    let playCount: Int
    let lastPlayedAt: Double?
    /// Nil while it was never played: it is in neither list then.
    let orderFrequent: String?
    let orderRecent: String?

    init?(id: AlbumID, tracks: [AlbumTrack]) {
        guard let title = tracks.map(\.album).min(), let artist = tracks.map(\.albumArtist).min(),
            let addedAt = tracks.map(\.addedAt).min()
        else { return nil }
        self.id = id
        self.title = title
        self.artist = artist
        artistID = StableID.artist(named: artist)
        trackCount = tracks.count
        duration = tracks.reduce(0) { $0 + $1.duration }
        let years = tracks.compactMap(\.year)
        yearMin = years.min()
        yearMax = years.max()
        var genres: [String: (count: Int, name: String)] = [:]
        for genre in tracks.compactMap(\.genre) {
            let key = CatalogKeys.genre(genre)
            let seen = genres[key]
            genres[key] = ((seen?.count ?? 0) + 1, min(seen?.name ?? genre, genre))
        }
        let main = genres.min { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }
        genre = main?.value.name
        genreKey = main?.key
        let artwork = tracks.filter { $0.artworkHash != nil }.min { $0.id < $1.id }
        artworkTrackID = artwork?.id
        artworkHash = artwork?.artworkHash
        self.addedAt = addedAt
        orderArtist = CatalogKeys.albumByArtist(artist: artist, title: title, id: id)
        orderName = CatalogKeys.albumByName(title: title, artist: artist, id: id)
        orderYear = CatalogKeys.albumByYear(year: yearMin, artist: artist, title: title, id: id)
        orderNewest = CatalogKeys.albumNewest(addedAt: Date(timeIntervalSince1970: addedAt), artist: artist, title: title, id: id)
        playCount = tracks.reduce(0) { $0 + $1.playCount }
        lastPlayedAt = tracks.compactMap(\.lastPlayedAt).max()
        orderFrequent = playCount > 0 ? CatalogKeys.albumFrequent(playCount: playCount, artist: artist, title: title, id: id) : nil
        orderRecent = lastPlayedAt.map { CatalogKeys.albumRecent(playedAt: Date(timeIntervalSince1970: $0), artist: artist, title: title, id: id) }
    }
}
