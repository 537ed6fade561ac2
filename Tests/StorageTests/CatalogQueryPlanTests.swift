import Foundation
import JukeCore
import JukeTestSupport
import SQLKit
import Testing

@testable import Storage

/// Every page of the catalog, in every order, reads an index: its plan never sorts or
/// groups a whole table (SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN with sequential
/// scans priced out, as they would be on a large library).
@Suite(.timeLimit(.minutes(5))) struct CatalogQueryPlanTests {
    /// What a plan does that costs the whole table: the plan's lines that say so. A page
    /// over the whole library may not sort at all; a filtered page may sort (or gather) only
    /// rows that its filter's index found, never a table read end to end.
    static func wholeTableWork(_ plan: [String], kind: DatabaseKind, filtered: Bool = false) -> [String] {
        let tables = ["tracks", "albums", "artists", "catalog_facets"]
        switch kind {
        case .sqlite:
            let fullScans = plan.filter { line in tables.contains { line == "SCAN \($0)" || line.hasPrefix("SCAN \($0) ") } }
            let unindexed = fullScans.filter { !$0.contains("USING") }
            let sorts = plan.filter { $0.contains("USE TEMP B-TREE") }
            return unindexed + (filtered && fullScans.isEmpty ? [] : sorts)
        case .postgres:
            var found = plan.filter { line in tables.contains { line.contains("Seq Scan on \($0)") } }
            for (i, line) in plan.enumerated() {
                let node = line.replacingOccurrences(of: "->", with: "").trimmingCharacters(in: .whitespaces)
                guard ["Sort", "Incremental Sort", "HashAggregate", "GroupAggregate"].contains(where: { node.hasPrefix($0 + " ") }) else { continue }
                let indent = line.prefix { $0 == " " || $0 == "-" || $0 == ">" }.count
                let below = plan[(i + 1)...].prefix { $0.prefix { $0 == " " || $0 == "-" || $0 == ">" }.count > indent }
                let readByIndex = below.contains { $0.contains("Index Cond") || $0.contains("Recheck Cond") }
                if !filtered || !readByIndex { found.append(line) }
            }
            return found
        }
    }

    static func plan(_ db: any JukeDatabase, _ query: SQLQueryString) async throws -> [String] {
        switch db.kind {
        case .sqlite:
            return try await db.withConnection { conn in
                try await conn.raw("EXPLAIN QUERY PLAN " + query).all().map { try $0.decode(column: "detail", as: String.self) }
            }
        case .postgres:
            return try await db.transaction { tx in
                try await tx.raw("SET LOCAL enable_seqscan = off").run()
                return try await tx.raw("EXPLAIN " + query).all().map { try $0.decode(column: "QUERY PLAN", as: String.self) }
            }
        }
    }

    /// The pages a person browses: every order, first, after a cursor and at a deep offset.
    static var pages: [(name: String, statements: [SQLQueryString], filtered: Bool)] {
        var out: [(String, [SQLQueryString], Bool)] = []
        func add(_ name: String, _ statements: [SQLQueryString], filtered: Bool = false) { out.append((name, statements, filtered)) }
        for order in LibraryStore.AlbumOrder.allCases where order != .random {
            // The most and recently played lists hold the played albums only, read through
            // their keys' index: deep in them PostgreSQL may sort what that index found (the
            // played albums), never the table.
            let played = order == .frequent || order == .recent
            var query = LibraryStore.AlbumQuery(order: order, limit: 50)
            add("albums by \(order)", query.statements)
            query.after = CatalogCursor(scope: "x", column: query.orderColumn, key: "m")
            add("albums by \(order) after a cursor", query.statements)
            add("albums by \(order) at offset 5000", LibraryStore.AlbumQuery(order: order, limit: 50, offset: 5000).statements, filtered: played)
        }
        add("random albums", LibraryStore.AlbumQuery(order: .random, limit: 50, randomStart: "8").statements)
        var genre = LibraryStore.AlbumQuery(order: .name, genre: "Rock", limit: 50)
        add("albums of a genre", genre.statements, filtered: true)
        genre.after = CatalogCursor(scope: "albums", column: "order_name", key: "m")
        add("albums of a genre after a cursor", genre.statements, filtered: true)
        for years in [(1990, 2000), (2000, 1990)] {
            var query = LibraryStore.AlbumQuery(order: .year, years: years, limit: 50)
            add("albums of \(years.0) to \(years.1)", query.statements, filtered: true)
            query.after = CatalogCursor(scope: "albums", column: "order_year", key: "01995")
            add("albums of \(years.0) to \(years.1) after a cursor", query.statements, filtered: true)
        }
        for after in [nil, CatalogCursor(scope: "albums", column: "order_name", key: "m")] {
            add(
                "artists\(after == nil ? "" : " after a cursor")",
                [LibraryStore.pageQuery(table: "artists", column: "order_name", conditions: [], after: after, descending: false, limit: 51, offset: 0)])
        }
        add(
            "artists at offset 5000",
            [LibraryStore.pageQuery(table: "artists", column: "order_name", conditions: [], after: nil, descending: false, limit: 51, offset: 5000)])
        for order in LibraryStore.TrackOrder.allCases {
            var query = LibraryStore.TrackQuery(order: order, limit: 50)
            add("tracks by \(order)", query.statements)
            query.after = CatalogCursor(scope: "x", column: query.orderColumn, key: "m")
            add("tracks by \(order) after a cursor", query.statements)
            add("tracks by \(order) at offset 50000", LibraryStore.TrackQuery(order: order, limit: 50, offset: 50_000).statements)
        }
        let filters: [(String, LibraryStore.TrackFilter)] = [
            ("an artist's", .init(artistID: ArtistID())), ("an album's", .init(albumID: AlbumID())), ("a genre's", .init(genre: "Rock")),
            ("a year's", .init(year: 1999)),
        ]
        for (name, filter) in filters {
            var query = LibraryStore.TrackQuery(filter: filter, limit: 50)
            add("\(name) tracks", query.statements, filtered: true)
            query.after = CatalogCursor(scope: "x", column: query.orderColumn, key: "m")
            add("\(name) tracks after a cursor", query.statements, filtered: true)
        }
        // An artist's albums (its own and those it has tracks on), and the newest tracks
        // with a filter, sort what the filter's index found.
        for order in LibraryStore.AlbumOrder.allCases where order != .random {
            add("an artist's albums by \(order)", LibraryStore.AlbumQuery(order: order, artistID: ArtistID(), limit: 50).statements, filtered: true)
        }
        add("a genre's newest tracks", LibraryStore.TrackQuery(filter: .init(genre: "Rock"), order: .newest, limit: 50).statements, filtered: true)
        // The genres and years with their counts, and the recounts a scan makes of them.
        add("genres", [CatalogFacets.listQuery(.genre)])
        add("years", [CatalogFacets.listQuery(.year)])
        add("a genre recounted", [CatalogFacets.countQuery(genre: "Rock")], filtered: true)
        add("a year recounted", [CatalogFacets.countQuery(year: 1999)], filtered: true)
        return out
    }

    static func fill(_ db: TestDatabase) async throws {
        let store = LibraryStore(database: db.database)
        let folder = try await store.addFolder(path: "/music", now: Date()).id
        var changes = LibraryStore.ScanChanges()
        changes.upserts = (1...60).map {
            CatalogMaintenanceTests.track(
                folder, "T\($0)", artist: "Artist \($0 % 7)", album: "Album \($0 % 11)", number: $0, genre: $0 % 2 == 0 ? "Rock" : "Pop", year: 1980 + $0 % 30)
        }
        try await store.apply(changes, folder: folder, now: Date())
        try await store.recordPlays(changes.upserts.prefix(20).map { CatalogPlays.Play(track: $0.id, at: $0.addedAt) })
        guard db.database.kind == .postgres else { return }
        // PostgreSQL rightly sorts a table of a few pages rather than read an index: give it a
        // library's worth of rows (made in SQL, not scanned; only their plans matter here).
        let statements = [
            """
            INSERT INTO albums (id, title, artist, artist_id, track_count, duration, year_min, genre, genre_key, added_at,
                order_artist, order_name, order_year, order_newest, order_frequent, order_recent)
            SELECT md5('a' || g), 't', 'a', md5('r' || (g % 2000)), 10, 100, 1950 + g % 70, 'G', CASE WHEN g % 50 = 0 THEN 'rock' ELSE 'g' || (g % 50) END, g,
                md5('a' || g), md5('n' || g), lpad((1950 + g % 70)::text, 5, '0') || md5('y' || g), md5('d' || g),
                CASE WHEN g % 3 = 0 THEN md5('f' || g) END, CASE WHEN g % 3 = 0 THEN md5('p' || g) END
            FROM generate_series(1, 20000) g
            """,
            "INSERT INTO catalog_facets (kind, value, track_count) SELECT 'genre', md5('g' || g), 10 FROM generate_series(1, 20000) g",
            "INSERT INTO catalog_facets (kind, value, track_count) SELECT 'year', (10000 + g)::text, 10 FROM generate_series(1, 20000) g",
            """
            INSERT INTO artists (id, name, track_count, album_count, order_name)
            SELECT md5('r' || g), 'n', 10, 5, md5('n' || g) FROM generate_series(1, 20000) g
            """,
            """
            INSERT INTO tracks (id, folder_id, path, file_size, modified_millis, format, title, artist, album, album_artist,
                album_id, artist_id, genre, genre_key, year, duration, added_at, order_artist, order_album, order_newest)
            SELECT md5('t' || g), '\(folder.description)', '/bulk/' || g, 1, 1, 'mp3', 't', 'a', 'b', 'a', md5('a' || (g % 20000)), md5('r' || (g % 2000)),
                'G', CASE WHEN g % 50 = 0 THEN 'rock' ELSE 'g' || (g % 50) END, 1950 + g % 70, 100, g, md5('a' || g), md5('l' || g), md5('d' || g)
            FROM generate_series(1, 40000) g
            """,
        ]
        for statement in statements {
            try await db.database.withConnection { try await $0.raw(SQLQueryString(statement)).run() }
        }
    }

    @Test(arguments: TestBackend.available)
    func noPageSortsOrGroupsAWholeTable(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            try await Self.fill(db)
            // Before and after the database has gathered statistics on the tables (SQLite
            // starts without; PostgreSQL gathers them on its own once a table has grown).
            for analyzed in db.database.kind == .sqlite ? [false, true] : [true] {
                if analyzed { try await db.database.withConnection { try await $0.raw("ANALYZE").run() } }
                for page in Self.pages {
                    for statement in page.statements {
                        let plan = try await Self.plan(db.database, statement)
                        #expect(
                            Self.wholeTableWork(plan, kind: db.database.kind, filtered: page.filtered).isEmpty, "\(page.name) (analyzed: \(analyzed)): \(plan)")
                    }
                }
            }
        }
    }

    /// The check fails on the queries the catalog replaced (grouping and sorting every track).
    @Test(arguments: TestBackend.available)
    func theCheckCatchesTheOldQueries(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            try await Self.fill(db)
            try await db.database.withConnection { try await $0.raw("ANALYZE").run() }
            for (name, query) in OldCatalogQueries.all(limit: 50, offset: 0) {
                let plan = try await Self.plan(db.database, SQLQueryString(query))
                #expect(!Self.wholeTableWork(plan, kind: db.database.kind).isEmpty, "\(name): \(plan)")
            }
        }
    }
}
