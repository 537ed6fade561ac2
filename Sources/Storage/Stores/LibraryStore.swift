public import Foundation
public import JukeCore
import SQLKit

/// The music library's rows: watched folders, tracks, artwork and scan problems.
public struct LibraryStore: Sendable {
    let database: any JukeDatabase
    /// Where deep pages of the library's orders start (shared by every copy of this store).
    let checkpoints: CatalogCheckpoints

    public init(database: any JukeDatabase, checkpoints: CatalogCheckpoints = CatalogCheckpoints()) {
        self.database = database
        self.checkpoints = checkpoints
    }

    // MARK: Folders

    /// Adds a folder, or returns the one already watching `path`.
    public func addFolder(path: String, now: Date) async throws -> LibraryFolder {
        try await database.transaction { db in
            if let row = try await db.raw("SELECT * FROM library_folders WHERE path = \(bind: path)").first() {
                return try Self.folder(row)
            }
            let folder = LibraryFolder(id: LibraryFolderID(), path: path, addedAt: now)
            try await db.raw(
                "INSERT INTO library_folders (id, path, added_at) VALUES (\(bind: folder.id.description), \(bind: path), \(bind: now.timeIntervalSince1970))"
            ).run()
            return folder
        }
    }

    public func folders() async throws -> [LibraryFolder] {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM library_folders ORDER BY path").all().map(Self.folder)
        }
    }

    public func markScanned(_ folder: LibraryFolderID, at time: Date) async throws {
        try await database.withConnection { db in
            try await db.raw("UPDATE library_folders SET last_scan_at = \(bind: time.timeIntervalSince1970) WHERE id = \(bind: folder.description)").run()
        }
    }

    static func folder(_ row: any SQLRow) throws -> LibraryFolder {
        LibraryFolder(
            id: try decodeID(row, "id"),
            path: try row.decode(column: "path", as: String.self),
            addedAt: Date(timeIntervalSince1970: try row.decode(column: "added_at", as: Double.self)),
            lastScanAt: try row.decode(column: "last_scan_at", as: Double?.self).map(Date.init(timeIntervalSince1970:))
        )
    }

    // MARK: Scanning support

    /// What the library knows of each file in a folder, for deciding what to reopen.
    public struct FileRecord: Sendable, Equatable {
        public let id: TrackID
        public let path: String
        public let fileSize: Int64
        public let modifiedMillis: Int64
        /// Kept so that a moved file can be told apart from another of the same size and time.
        public let title: String
        public let artist: String
    }

    public func fileRecords(folder: LibraryFolderID) async throws -> [FileRecord] {
        try await database.withConnection { db in
            try await db.raw("SELECT id, path, file_size, modified_millis, title, artist FROM tracks WHERE folder_id = \(bind: folder.description)").all().map {
                row in
                FileRecord(
                    id: try decodeID(row, "id"),
                    path: try row.decode(column: "path", as: String.self),
                    fileSize: try row.decode(column: "file_size", as: Int64.self),
                    modifiedMillis: try row.decode(column: "modified_millis", as: Int64.self),
                    title: try row.decode(column: "title", as: String.self),
                    artist: try row.decode(column: "artist", as: String.self)
                )
            }
        }
    }

    /// One scan's changes, applied in a single transaction so that a crash mid-scan leaves
    /// the library as it was before, never half-updated.
    public struct ScanChanges: Sendable {
        public var upserts: [Track] = []
        /// Tracks whose file moved: their rows follow the file to its new path first, so the
        /// upsert below finds them there and they keep their IDs.
        public var moves: [(id: TrackID, newPath: String)] = []
        public var artwork: [String: (mimeType: String, data: Data)] = [:]
        public var deletions: [TrackID] = []
        public var issues: [(path: String, reason: String)] = []
        public var resolvedIssuePaths: [String] = []
        public init() {}
        public var changesTracks: Bool { !upserts.isEmpty || !deletions.isEmpty || !moves.isEmpty }
    }

    /// What a saved scan batch changed, for the search index to follow in place: the library's
    /// generation after it, the tracks as stored now (IDs and first-added dates the rows kept)
    /// and the tracks removed.
    public struct AppliedChanges: Sendable {
        public let generation: Int
        public let stored: [Track]
        public let removed: [TrackID]
    }

    /// Saves a scan's batch. Returns what it changed (nil when no track changed).
    @discardableResult
    public func apply(_ changes: ScanChanges, folder: LibraryFolderID, now: Date) async throws -> AppliedChanges? {
        try await database.transaction { db in
            for (hash, art) in changes.artwork {
                try await db.raw(
                    "INSERT INTO artwork (hash, mime_type, data) VALUES (\(bind: hash), \(bind: art.mimeType), \(bind: art.data)) ON CONFLICT (hash) DO NOTHING"
                ).run()
            }
            // The albums, artists, genres and years this change touches, as they were and as
            // they will be: only these are recomputed, in this transaction.
            var touched = try await CatalogMaintenance.owners(on: db, column: "id", values: changes.deletions.map(\.description))
            for id in changes.deletions {
                try await db.raw("DELETE FROM tracks WHERE id = \(bind: id.description)").run()
            }
            for move in changes.moves {
                try await db.raw("UPDATE tracks SET path = \(bind: move.newPath) WHERE id = \(bind: move.id.description)").run()
            }
            let before = try await CatalogMaintenance.owners(on: db, column: "path", values: changes.upserts.map(\.path))
            touched.formUnion(before)
            let addedBefore = try await Self.addedAt(paths: changes.upserts.map(\.path), on: db)
            // Upserts key on the path, not the ID: when two servers (or a server and the
            // command line) scan the same folder at once, the second to commit updates the
            // row the first inserted instead of failing on the unique path.
            for var t in changes.upserts {
                // A track already there keeps when it was first added (and its place among the newest).
                t.addedAt = addedBefore[t.path] ?? t.addedAt
                let keys = TrackKeys(t, addedAt: t.addedAt)
                touched.albums.insert(t.albumID.description)
                touched.artists.insert(t.artistID.description)
                if let genre = t.genre { touched.genres.insert(genre) }
                if let year = t.year { touched.years.insert(year) }
                try await db.raw(
                    """
                    INSERT INTO tracks (id, folder_id, path, file_size, modified_millis, format, codec, title, artist, album, album_artist,
                        album_id, artist_id, composer, genre, year, track_number, disc_number, duration, isrc, musicbrainz_id, bpm, artwork_hash, added_at,
                        order_artist, order_album, order_newest, genre_key, search_words)
                    VALUES (\(bind: t.id.description), \(bind: t.folderID.description), \(bind: t.path), \(bind: t.fileSize), \(bind: t.modifiedMillis),
                        \(bind: t.format), \(bind: t.codec), \(bind: t.title), \(bind: t.artist), \(bind: t.album), \(bind: t.albumArtist),
                        \(bind: t.albumID.description), \(bind: t.artistID.description), \(bind: t.composer), \(bind: t.genre), \(bind: t.year),
                        \(bind: t.trackNumber), \(bind: t.discNumber), \(bind: t.duration), \(bind: t.isrc), \(bind: t.musicBrainzID),
                        \(bind: t.bpm), \(bind: t.artworkHash), \(bind: t.addedAt.timeIntervalSince1970),
                        \(bind: keys.byArtist), \(bind: keys.inAlbum), \(bind: keys.newest), \(bind: keys.genreKey), \(bind: keys.words))
                    ON CONFLICT (path) DO UPDATE SET folder_id = excluded.folder_id, file_size = excluded.file_size,
                        modified_millis = excluded.modified_millis, format = excluded.format, codec = excluded.codec, title = excluded.title,
                        artist = excluded.artist, album = excluded.album, album_artist = excluded.album_artist,
                        album_id = excluded.album_id, artist_id = excluded.artist_id, composer = excluded.composer,
                        genre = excluded.genre, year = excluded.year, track_number = excluded.track_number,
                        disc_number = excluded.disc_number, duration = excluded.duration, isrc = excluded.isrc,
                        musicbrainz_id = excluded.musicbrainz_id, bpm = excluded.bpm, artwork_hash = excluded.artwork_hash,
                        added_at = excluded.added_at, order_artist = excluded.order_artist, order_album = excluded.order_album,
                        order_newest = excluded.order_newest, genre_key = excluded.genre_key, search_words = excluded.search_words
                    """
                ).run()
            }
            for path in changes.resolvedIssuePaths {
                try await db.raw("DELETE FROM scan_issues WHERE folder_id = \(bind: folder.description) AND path = \(bind: path)").run()
            }
            for issue in changes.issues {
                try await db.raw(
                    """
                    INSERT INTO scan_issues (folder_id, path, reason, seen_at) VALUES (\(bind: folder.description), \(bind: issue.path), \(bind: issue.reason), \(bind: now.timeIntervalSince1970))
                    ON CONFLICT (folder_id, path) DO UPDATE SET reason = excluded.reason, seen_at = excluded.seen_at
                    """
                ).run()
            }
            if changes.changesTracks {
                try await CatalogMaintenance.refresh(albums: touched.albums, artists: touched.artists, on: db)
                try await CatalogFacets.refresh(genres: touched.genres, years: touched.years, on: db)
                try await CatalogMaintenance.refreshCounts(on: db)
                try await db.raw("UPDATE library_generation SET generation = generation + 1 WHERE id = 1").run()
            }
            try await db.raw("UPDATE library_folders SET last_scan_at = \(bind: now.timeIntervalSince1970) WHERE id = \(bind: folder.description)").run()
            guard changes.changesTracks else { return nil }
            let generation = try await db.raw("SELECT generation FROM library_generation WHERE id = 1").first()?.decode(column: "generation", as: Int.self) ?? 0
            var stored: [Track] = []
            for part in CatalogMaintenance.chunks(Set(changes.upserts.map(\.path))) {
                stored += try await db.raw("SELECT * FROM tracks WHERE path IN " + CatalogMaintenance.inList(part)).all().map(Self.track)
            }
            return AppliedChanges(generation: generation, stored: stored, removed: changes.deletions)
        }
    }

    /// When the tracks at these paths were first added, for those already in the library.
    static func addedAt(paths: [String], on db: any SQLDatabase) async throws -> [String: Date] {
        var out: [String: Date] = [:]
        for part in CatalogMaintenance.chunks(Set(paths)) {
            for row in try await db.raw("SELECT path, added_at FROM tracks WHERE path IN " + CatalogMaintenance.inList(part)).all() {
                out[try row.decode(column: "path", as: String.self)] = Date(timeIntervalSince1970: try row.decode(column: "added_at", as: Double.self))
            }
        }
        return out
    }

    public struct ScanIssue: Sendable, Equatable {
        public let path: String
        public let reason: String
    }

    public func scanIssues() async throws -> [ScanIssue] {
        try await database.withConnection { db in
            try await db.raw("SELECT path, reason FROM scan_issues ORDER BY path").all().map {
                ScanIssue(path: try $0.decode(column: "path", as: String.self), reason: try $0.decode(column: "reason", as: String.self))
            }
        }
    }

    /// Bumped on every change to the tracks; search indexes reload when it moves.
    public func generation() async throws -> Int {
        try await database.withConnection { db in
            try await db.raw("SELECT generation FROM library_generation WHERE id = 1").first()?.decode(column: "generation", as: Int.self) ?? 0
        }
    }

    // MARK: Reading

    public func track(id: TrackID) async throws -> Track? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM tracks WHERE id = \(bind: id.description)").first().map(Self.track)
        }
    }

    public func trackCount() async throws -> Int {
        try await database.withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM tracks").first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    public func allTracks() async throws -> [Track] {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM tracks").all().map(Self.track)
        }
    }

    /// Every genre (or year) with its number of tracks, in value order: read from the rows
    /// each scan keeps, never counted from the tracks.
    public func facet(_ kind: Facet) async throws -> [(value: String, count: Int)] {
        try await database.withConnection { db in
            try await db.raw(CatalogFacets.listQuery(kind)).all().map {
                (try $0.decode(column: "value", as: String.self), try $0.decode(column: "track_count", as: Int.self))
            }
        }
    }

    public enum Facet: String, Sendable { case genre, year }

    public func artwork(hash: String) async throws -> (mimeType: String, data: Data)? {
        try await database.withConnection { db in
            guard let row = try await db.raw("SELECT mime_type, data FROM artwork WHERE hash = \(bind: hash)").first() else { return nil }
            return (try row.decode(column: "mime_type", as: String.self), try row.decode(column: "data", as: Data.self))
        }
    }

    static func track(_ row: any SQLRow) throws -> Track {
        Track(
            id: try decodeID(row, "id"),
            folderID: try decodeID(row, "folder_id"),
            path: try row.decode(column: "path", as: String.self),
            fileSize: try row.decode(column: "file_size", as: Int64.self),
            modifiedMillis: try row.decode(column: "modified_millis", as: Int64.self),
            format: try row.decode(column: "format", as: String.self),
            codec: try row.decode(column: "codec", as: String?.self),
            title: try row.decode(column: "title", as: String.self),
            artist: try row.decode(column: "artist", as: String.self),
            album: try row.decode(column: "album", as: String.self),
            albumArtist: try row.decode(column: "album_artist", as: String.self),
            composer: try row.decode(column: "composer", as: String?.self),
            genre: try row.decode(column: "genre", as: String?.self),
            year: try row.decode(column: "year", as: Int?.self),
            trackNumber: try row.decode(column: "track_number", as: Int?.self),
            discNumber: try row.decode(column: "disc_number", as: Int?.self),
            duration: try row.decode(column: "duration", as: Double.self),
            isrc: try row.decode(column: "isrc", as: String?.self),
            musicBrainzID: try row.decode(column: "musicbrainz_id", as: String?.self),
            bpm: try row.decode(column: "bpm", as: Double?.self),
            artworkHash: try row.decode(column: "artwork_hash", as: String?.self),
            addedAt: Date(timeIntervalSince1970: try row.decode(column: "added_at", as: Double.self))
        )
    }
}

/// A typed ID from a text column; a value that is not one is reported, not trapped.
public func decodeID<ID: TypedID>(_ row: any SQLRow, _ column: String) throws -> ID {
    let raw = try row.decode(column: column, as: String.self)
    guard let id = ID(raw) else { throw StorageError.notFound("\(column) '\(raw)' is not a UUID") }
    return id
}

extension Array where Element == SQLQueryString {
    func joined(separator: String) -> SQLQueryString {
        var out: SQLQueryString = ""
        for (i, part) in enumerated() {
            if i > 0 { out = out + SQLQueryString(separator) }
            out = out + part
        }
        return out
    }
}
