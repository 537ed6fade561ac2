import Foundation
import JukeCore
import JukeTestSupport
import SQLKit
import Testing

@testable import Storage

/// Issue 51's measure, run by hand (`JUKE_CATALOG_BENCH=1 swift test --filter CatalogPageBenchmark`):
/// a library of 100,000 tracks (2,500 artists, 10,000 albums) stored through the scanner's
/// own path (`apply`, 500 tracks a batch), then the first and a deep page of albums, artists
/// and tracks timed with the queries from before the catalog and with the catalog's, in one
/// run on each database, beside the catalog's pages on a library of 1,000 tracks. It prints figures
/// and asserts nothing about time.
@Suite(.timeLimit(.minutes(5)), .enabled(if: ProcessInfo.processInfo.environment["JUKE_CATALOG_BENCH"] != nil))
struct CatalogPageBenchmark {
    static let genres = ["Rock", "Pop", "Jazz", "Classical", "Electronic", "Folk", "Hip-Hop", "Blues", "Soul", "Metal"]

    /// `albums` albums of ten tracks, four albums an artist; every eighth artist a "The".
    /// SQLite: through `apply`, 500 a batch. PostgreSQL, where that took more than this
    /// suite's five minutes on the shared machine (a round trip a statement): the same tracks
    /// with the same keys inserted 1,000 a statement, then the albums and artists computed by
    /// the same maintenance code `apply` runs.
    static func fill(_ store: LibraryStore, albums: Int) async throws -> Duration {
        let folder = try await store.addFolder(path: "/music", now: Date()).id
        let clock = ContinuousClock()
        let start = clock.now
        let tracks = Self.tracks(folder: folder, albums: albums)
        if store.database.kind == .postgres {
            try await store.database.transaction { db in
                for offset in stride(from: 0, to: tracks.count, by: 1_000) {
                    var statement: SQLQueryString = """
                        INSERT INTO tracks (id, folder_id, path, file_size, modified_millis, format, title, artist, album, album_artist,
                            album_id, artist_id, genre, year, track_number, disc_number, duration, added_at, order_artist, order_album, order_newest, genre_key,
                            search_words)
                        VALUES
                        """
                    for (i, t) in tracks[offset..<min(offset + 1_000, tracks.count)].enumerated() {
                        let keys = TrackKeys(t, addedAt: t.addedAt)
                        let row: SQLQueryString = """
                            (\(bind: t.id.description), \(bind: t.folderID.description), \(bind: t.path), \(bind: t.fileSize), \(bind: t.modifiedMillis),
                            \(bind: t.format), \(bind: t.title), \(bind: t.artist), \(bind: t.album), \(bind: t.albumArtist), \(bind: t.albumID.description),
                            \(bind: t.artistID.description), \(bind: t.genre), \(bind: t.year), \(bind: t.trackNumber), \(bind: t.discNumber), \(bind: t.duration),
                            \(bind: t.addedAt.timeIntervalSince1970), \(bind: keys.byArtist), \(bind: keys.inAlbum), \(bind: keys.newest), \(bind: keys.genreKey),
                            \(bind: keys.words))
                            """
                        statement = statement + (i == 0 ? "" : ", ") + row
                    }
                    try await db.raw(statement).run()
                }
                try await CatalogMaintenance.refresh(
                    albums: Set(tracks.map(\.albumID.description)), artists: Set(tracks.map(\.artistID.description)), on: db)
                try await CatalogFacets.rebuild(on: db)
                try await CatalogMaintenance.refreshCounts(on: db)
            }
            return clock.now - start
        }
        var batch = LibraryStore.ScanChanges()
        for track in tracks {
            batch.upserts.append(track)
            if batch.upserts.count == 500 {
                try await store.apply(batch, folder: folder, now: Date())
                batch = LibraryStore.ScanChanges()
            }
        }
        try await store.apply(batch, folder: folder, now: Date())
        return clock.now - start
    }

    static func tracks(folder: LibraryFolderID, albums: Int) -> [Track] {
        tracks(folder: folder, albums: 0..<albums)
    }

    /// The tracks of these albums of the library above (album `n` is always the same names).
    static func tracks(folder: LibraryFolderID, albums: Range<Int>) -> [Track] {
        var out: [Track] = []
        for album in albums {
            let artistNumber = album / 4
            let artist = artistNumber % 8 == 0 ? "The Artist \(artistNumber)" : "Artist \(artistNumber)"
            for number in 1...10 {
                out.append(
                    Track(
                        id: TrackID(), folderID: folder, path: "/music/\(artist)/\(album)/\(number).mp3", fileSize: 4_000_000, modifiedMillis: 1,
                        format: "mp3", title: "Song \(number) of \(album)", artist: artist, album: "Album \(album)", albumArtist: artist,
                        genre: genres[album % genres.count], year: 1950 + album % 70, trackNumber: number, discNumber: 1, duration: 200,
                        addedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(album))))
            }
        }
        return out
    }

    /// The median of `runs` timings of `body`.
    static func time(runs: Int = 7, _ body: () async throws -> Void) async throws -> Double {
        var times: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<runs {
            let start = clock.now
            try await body()
            let elapsed = clock.now - start
            times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        return times.sorted()[runs / 2]
    }

    static func raw(_ db: any JukeDatabase, _ statements: [String]) async throws {
        try await db.withConnection { conn in
            for statement in statements { _ = try await conn.raw(SQLQueryString(statement)).all() }
        }
    }

    /// A cursor at row `offset` of an order (untimed): where a client paging on with `next` would be.
    static func cursor(_ db: any JukeDatabase, scope: String, column: String, offset: Int) async throws -> CatalogCursor {
        let key = try await db.withConnection { conn in
            let statement = "SELECT " + column + " AS k FROM " + scope + " ORDER BY " + column + " LIMIT 1 OFFSET " + String(offset - 1)
            return try await conn.raw(SQLQueryString(statement)).first()?
                .decode(column: "k", as: String.self) ?? ""
        }
        return CatalogCursor(scope: scope, column: column, key: key)
    }

    struct Row {
        let what: String
        let old: Double?
        let new: Double
    }

    /// The new pages of a library of `albums` albums: first, deep by offset, deep by cursor.
    static func newPages(_ db: any JukeDatabase, albums: Int) async throws -> [String: Double] {
        let store = LibraryStore(database: db)
        let tracks = albums * 10
        // At least 50 rows before the deep page (a small library's 25 artists: the first).
        let artists = max(albums / 4, 51)
        var out: [String: Double] = [:]
        out["albums first"] = try await time { _ = try await store.albums(LibraryStore.AlbumQuery(limit: 50)) }
        out["albums deep offset"] = try await time { _ = try await store.albums(LibraryStore.AlbumQuery(limit: 50, offset: albums - 50)) }
        let albumCursor = try await cursor(db, scope: "albums", column: "order_artist", offset: albums - 50)
        out["albums deep after"] = try await time { _ = try await store.albums(LibraryStore.AlbumQuery(limit: 50, after: albumCursor)) }
        out["artists first"] = try await time { _ = try await store.artists(limit: 50) }
        out["artists deep offset"] = try await time { _ = try await store.artists(limit: 50, offset: artists - 50) }
        let artistCursor = try await cursor(db, scope: "artists", column: "order_name", offset: artists - 50)
        out["artists deep after"] = try await time { _ = try await store.artists(limit: 50, after: artistCursor) }
        for order in LibraryStore.TrackOrder.allCases {
            out["tracks \(order) first"] = try await time { _ = try await store.tracks(LibraryStore.TrackQuery(order: order, limit: 50)) }
            out["tracks \(order) deep offset"] = try await time {
                _ = try await store.tracks(LibraryStore.TrackQuery(order: order, limit: 50, offset: tracks - 50))
            }
            let column = LibraryStore.TrackQuery(order: order, limit: 50).orderColumn
            let trackCursor = try await cursor(db, scope: "tracks", column: column, offset: tracks - 50)
            out["tracks \(order) deep after"] = try await time {
                _ = try await store.tracks(LibraryStore.TrackQuery(order: order, limit: 50, after: trackCursor))
            }
        }
        for (name, query) in [
            ("albums by year", LibraryStore.AlbumQuery(order: .year, limit: 50)), ("albums newest", LibraryStore.AlbumQuery(order: .newest, limit: 50)),
            ("albums random", LibraryStore.AlbumQuery(order: .random, limit: 50, randomStart: "8")),
            ("albums of a genre", LibraryStore.AlbumQuery(order: .name, genre: "Jazz", limit: 50)),
            ("albums of 1990-1999", LibraryStore.AlbumQuery(order: .year, years: (1990, 1999), limit: 50)),
        ] {
            out[name] = try await time { _ = try await store.albums(query) }
        }
        return out
    }

    /// Each database in turn (never both at once: they would share the two cores), or the one
    /// JUKE_CATALOG_BENCH names.
    static var backends: [TestBackend] {
        TestBackend.available.filter { ["1", $0.rawValue].contains(ProcessInfo.processInfo.environment["JUKE_CATALOG_BENCH"]) }
    }

    /// `JUKE_CATALOG_BENCH_DB=<file>`: writes a large library into a SQLite file for a
    /// `juke serve` to be measured on (its resident memory and its pages under load, in
    /// docs/PERFORMANCE.md): `JUKE_CATALOG_BENCH_TRACKS` tracks (100,000 unless set; ten an
    /// album, four albums an artist) through the scanner's store path, `apply`, 500 a batch.
    /// It goes on from the tracks the file already holds and stops before this suite's time
    /// limit, every batch kept, so that a library larger than five minutes of writing (a
    /// million tracks) is written by running it again until it prints "complete".
    @Test(.enabled(if: ProcessInfo.processInfo.environment["JUKE_CATALOG_BENCH_DB"] != nil))
    func writesALargeLibraryForAServer() async throws {
        let environment = ProcessInfo.processInfo.environment
        let path = environment["JUKE_CATALOG_BENCH_DB"] ?? ""
        let wanted = Int(environment["JUKE_CATALOG_BENCH_TRACKS"] ?? "") ?? 100_000
        let database = SQLiteDatabase(path: path, logger: TestDatabase.logger)
        try await Migrator.migrate(database, schemas: [.platform], logger: TestDatabase.logger)
        let store = LibraryStore(database: database)
        var existing = try await store.folders().first?.id
        if existing == nil { existing = try await store.addFolder(path: "/music", now: Date()).id }
        guard let folder = existing else { return }
        let clock = ContinuousClock()
        let start = clock.now
        // Whole albums of ten: the library's next album is the count of tracks over ten.
        var album = try await store.trackCount() / 10
        let albums = (wanted + 9) / 10
        while album < albums, clock.now - start < .seconds(240) {
            let next = min(album + 50, albums)
            var batch = LibraryStore.ScanChanges()
            batch.upserts = Self.tracks(folder: folder, albums: album..<next)
            try await store.apply(batch, folder: folder, now: Date())
            album = next
        }
        let count = try await store.trackCount()
        print("\(count) tracks in \(path) (\(clock.now - start) this run)\(count >= wanted ? ", complete" : "; run again to go on")")
        await database.shutdown()
    }

    @Test(.serialized, arguments: backends)
    func pagesOfALargeLibraryBeforeAndAfterTheCatalog(backend: TestBackend) async throws {
        var report = "\(backend)\n"
        do {
            try await measure(backend, into: &report)
        } catch {
            Issue.record("\(String(reflecting: error))")
        }
        print(report)
        try report.write(
            toFile: FileManager.default.temporaryDirectory.appendingPathComponent("juke-catalog-bench-\(backend).txt").path, atomically: true,
            encoding: .utf8)
    }

    func measure(_ backend: TestBackend, into report: inout String) async throws {
        try await TestDatabase.with(backend) { small in
            let insertSmall = try await Self.fill(LibraryStore(database: small.database), albums: 100)
            if backend == .postgres { try await Self.raw(small.database, ["ANALYZE"]) }
            let smallPages = try await Self.newPages(small.database, albums: 100)
            try await TestDatabase.with(backend) { db in
                let insert = try await Self.fill(LibraryStore(database: db.database), albums: 10_000)
                report += "stored 100,000 tracks in \(insert) (1,000 tracks: \(insertSmall))\n"
                // As PostgreSQL's autovacuum does on its own after a large scan.
                if backend == .postgres { try await Self.raw(db.database, ["ANALYZE"]) }
                let pages = try await Self.newPages(db.database, albums: 10_000)
                // The old queries ran with the indexes of before (on album and on artist).
                try await Self.raw(db.database, ["CREATE INDEX tracks_album ON tracks(album_id)", "CREATE INDEX tracks_artist ON tracks(artist_id)"])
                typealias Old = OldCatalogQueries
                var old: [String: Double] = [:]
                old["albums first"] = try await Self.time(runs: 3) { try await Self.raw(db.database, [Old.albumCount, Old.albums(limit: 50, offset: 0)]) }
                old["albums deep offset"] = try await Self.time(runs: 3) {
                    try await Self.raw(db.database, [Old.albumCount, Old.albums(limit: 50, offset: 9_950)])
                }
                old["artists first"] = try await Self.time(runs: 3) { try await Self.raw(db.database, [Old.artistCount, Old.artists(limit: 50, offset: 0)]) }
                old["artists deep offset"] = try await Self.time(runs: 3) {
                    try await Self.raw(db.database, [Old.artistCount, Old.artists(limit: 50, offset: 2_450)])
                }
                let count = "SELECT COUNT(*) AS n FROM tracks"
                old["tracks artist first"] = try await Self.time(runs: 3) { try await Self.raw(db.database, [count, Old.tracks(limit: 50, offset: 0)]) }
                old["tracks artist deep offset"] = try await Self.time(runs: 3) {
                    try await Self.raw(db.database, [count, Old.tracks(limit: 50, offset: 99_950)])
                }
                old["tracks newest first"] = try await Self.time(runs: 3) { try await Self.raw(db.database, [count, Old.newestTracks(limit: 50, offset: 0)]) }
                old["tracks newest deep offset"] = try await Self.time(runs: 3) {
                    try await Self.raw(db.database, [count, Old.newestTracks(limit: 50, offset: 99_950)])
                }
                report += "page (50 rows) | before, 100k | catalog, 100k | catalog, 1k | before / catalog\n"
                for key in pages.keys.sorted() {
                    let new = pages[key] ?? 0
                    let before = old[key] ?? old[key.replacingOccurrences(of: "after", with: "offset")]
                    let ratio = before.map { String(format: "%.0fx", $0 / new) } ?? ""
                    report += String(
                        format: "%@ | %@ | %.3f ms | %.3f ms | %@\n", key, before.map { String(format: "%.1f ms", $0) } ?? "", new, smallPages[key] ?? 0, ratio)
                }
            }
        }
    }
}
