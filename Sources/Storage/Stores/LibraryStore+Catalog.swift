public import Foundation
public import JukeCore
import SQLKit

/// Where a page of the catalog ends: what it lists (`scope`: tracks, albums or artists), the
/// order it is read in (the stored key column) and the last key on it. The next page is the
/// keys after it, read from the index, so a deep page costs what the first does. Sent to
/// clients as opaque text.
public struct CatalogCursor: Sendable, Equatable {
    public let scope: String
    public let column: String
    public let key: String

    public init(scope: String, column: String, key: String) {
        self.scope = scope
        self.column = column
        self.key = key
    }

    /// Base64url of "scope column\nkey" (keys hold no line breaks).
    public var text: String {
        Data((scope + " " + column + "\n" + key).utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    public init?(text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let decoded = String(data: data, encoding: .utf8),
            let newline = decoded.firstIndex(of: "\n")
        else { return nil }
        let head = decoded[..<newline].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let key = String(decoded[decoded.index(after: newline)...])
        guard head.count == 2, Self.scopes.contains(head[0]), Self.columns.contains(head[1]), !key.isEmpty,
            !key.unicodeScalars.contains(where: { $0.value == 0 })
        else { return nil }
        self.init(scope: head[0], column: head[1], key: key)
    }

    static let scopes: Set<String> = ["tracks", "albums", "artists"]
    /// The key columns a cursor may name.
    static let columns: Set<String> = [
        "order_artist", "order_album", "order_newest", "order_name", "order_year", "order_frequent", "order_recent", "id",
    ]
}

extension LibraryStore {
    // MARK: Tracks

    public struct TrackFilter: Sendable {
        public var artistID: ArtistID?
        public var albumID: AlbumID?
        public var genre: String?
        public var year: Int?
        public init(artistID: ArtistID? = nil, albumID: AlbumID? = nil, genre: String? = nil, year: Int? = nil) {
            self.artistID = artistID
            self.albumID = albumID
            self.genre = genre
            self.year = year
        }
        var isEmpty: Bool { artistID == nil && albumID == nil && genre == nil && year == nil }
    }

    /// The order of a page of tracks: by artist and album (an album's in disc and track order),
    /// or the most recently added first.
    public enum TrackOrder: String, Sendable, CaseIterable { case artist, newest }

    public struct TrackQuery: Sendable {
        public var filter: TrackFilter
        public var order: TrackOrder
        public var limit: Int
        public var offset: Int
        public var after: CatalogCursor?
        public init(filter: TrackFilter = .init(), order: TrackOrder = .artist, limit: Int, offset: Int = 0, after: CatalogCursor? = nil) {
            self.filter = filter
            self.order = order
            self.limit = limit
            self.offset = offset
            self.after = after
        }

        /// The stored key the page is read by: newest first, else an album's own order when
        /// the page is one album's, else the artist order.
        public var orderColumn: String {
            order == .newest ? "order_newest" : filter.albumID != nil ? "order_album" : "order_artist"
        }

        var conditions: [SQLQueryString] {
            var conditions: [SQLQueryString] = []
            if let a = filter.artistID { conditions.append("artist_id = \(bind: a.description)") }
            if let a = filter.albumID { conditions.append("album_id = \(bind: a.description)") }
            if let g = filter.genre { conditions.append("genre_key = \(bind: CatalogKeys.genre(g))") }
            if let y = filter.year { conditions.append("year = \(bind: y)") }
            return conditions
        }

        /// The statements this page runs (its total, unless kept, and its rows).
        var statements: [SQLQueryString] {
            (filter.isEmpty ? [] : [LibraryStore.countQuery(table: "tracks", conditions: conditions)])
                + [
                    LibraryStore.pageQuery(
                        table: "tracks", column: orderColumn, conditions: conditions, after: after, descending: false, limit: limit + 1, offset: offset)
                ]
        }
    }

    public struct TrackPage: Sendable {
        public let tracks: [Track]
        public let total: Int
        /// Where the next page starts; nil on the last page.
        public let next: CatalogCursor?
    }

    /// A page of tracks, read from an index in its order (artist, album, genre and year pages
    /// from an index that starts with the filter). Newest first with a filter sorts only the
    /// filtered tracks.
    public func tracks(_ query: TrackQuery) async throws -> TrackPage {
        let filter = query.filter
        let column = query.orderColumn
        return try await database.withConnection { db in
            let conditions = query.conditions
            let total = try await Self.count(on: db, table: "tracks", stored: filter.isEmpty ? "track_count" : nil, conditions: conditions)
            let page = try await Self.page(
                on: db, table: "tracks", scope: "tracks", column: column, conditions: conditions, after: query.after, descending: false, limit: query.limit,
                offset: query.offset, checkpoints: ("tracks", checkpoints))
            return TrackPage(tracks: try page.rows.map(Self.track), total: total, next: page.next)
        }
    }

    public func tracks(filter: TrackFilter, order: TrackOrder = .artist, limit: Int, offset: Int) async throws -> (tracks: [Track], total: Int) {
        let page = try await tracks(TrackQuery(filter: filter, order: order, limit: limit, offset: offset))
        return (page.tracks, page.total)
    }

    // MARK: Albums

    public struct AlbumSummary: Sendable, Equatable {
        public let id: AlbumID
        public let title: String
        public let artist: String
        public let year: Int?
        public let trackCount: Int
        public let duration: Double
        public let artworkTrackID: TrackID?
        public var yearMax: Int? = nil
        public var genre: String? = nil
        public var addedAt: Date? = nil
        public var playCount = 0
        public var lastPlayedAt: Date? = nil
    }

    /// The orders albums are browsed in. artist: by album artist, then title. name: by
    /// title. year: by first year. newest: the most recently added first. random: from a
    /// random point of a stored random order (album IDs are hashes of their names).
    /// frequent: the most played first; recent: the most recently played first (both list
    /// only albums played at least once).
    public enum AlbumOrder: String, Sendable, CaseIterable { case artist, name, year, newest, random, frequent, recent }

    public struct AlbumQuery: Sendable {
        public var order: AlbumOrder
        public var artistID: ArtistID?
        public var genre: String?
        /// A range of first years; from after to reads the years downwards.
        public var years: (from: Int, to: Int)?
        public var limit: Int
        public var offset: Int
        public var after: CatalogCursor?
        /// Where a random page starts (an ID-shaped text: lowercase hex and dashes).
        public var randomStart: String
        public init(
            order: AlbumOrder = .artist, artistID: ArtistID? = nil, genre: String? = nil, years: (from: Int, to: Int)? = nil, limit: Int,
            offset: Int = 0, after: CatalogCursor? = nil, randomStart: String = ""
        ) {
            self.order = order
            self.artistID = artistID
            self.genre = genre
            self.years = years
            self.limit = limit
            self.offset = offset
            self.after = after
            self.randomStart = randomStart
        }

        public var orderColumn: String {
            switch order {
            case .artist: "order_artist"
            case .name: "order_name"
            case .year: "order_year"
            case .newest: "order_newest"
            case .random: "id"
            case .frequent: "order_frequent"
            case .recent: "order_recent"
            }
        }

        /// The rows a page is read from. An artist's albums: those it is the album artist of
        /// and those it has tracks on (a compilation), listed first and then each read by its
        /// ID (CROSS JOIN keeps SQLite to that order; read the other way round, every album
        /// would be walked to find them).
        var source: SQLQueryString {
            guard let a = artistID else { return "albums" }
            return
                "(SELECT id AS mine FROM albums WHERE artist_id = \(bind: a.description) UNION SELECT album_id FROM tracks WHERE artist_id = \(bind: a.description)) AS theirs CROSS JOIN albums"
        }

        var descending: Bool { order == .year && (years.map { $0.from > $0.to } ?? false) }

        var conditions: [SQLQueryString] {
            var conditions: [SQLQueryString] = []
            if artistID != nil { conditions.append("id = mine") }
            // An album never played has no key in these orders (and is in neither list).
            if order == .frequent || order == .recent { conditions.append(SQLQueryString(orderColumn + " IS NOT NULL")) }
            if let g = genre { conditions.append("genre_key = \(bind: CatalogKeys.genre(g))") }
            if let years {
                let low = min(years.from, years.to)
                let high = max(years.from, years.to)
                conditions.append("order_year >= \(bind: CatalogKeys.year(low)) AND order_year < \(bind: CatalogKeys.year(high + 1))")
            }
            return conditions
        }

        /// The statements this page runs (its total, unless kept, and its rows).
        var statements: [SQLQueryString] {
            let count = conditions.isEmpty ? [] : [LibraryStore.countQuery(table: source, conditions: conditions)]
            if order == .random {
                return count
                    + ["id >= \(bind: randomStart)", "id < \(bind: randomStart)"].map {
                        LibraryStore.pageQuery(
                            table: source, column: "id", conditions: conditions + [$0], after: nil, descending: false, limit: limit + 1, offset: 0)
                    }
            }
            return count + [
                LibraryStore.pageQuery(
                    table: source, column: orderColumn, conditions: conditions, after: after, descending: descending, limit: limit + 1, offset: offset)
            ]
        }
    }

    public struct AlbumPage: Sendable {
        public let albums: [AlbumSummary]
        public let total: Int
        public let next: CatalogCursor?
    }

    public func albums(_ query: AlbumQuery) async throws -> AlbumPage {
        let unfiltered = query.conditions.isEmpty
        return try await database.withConnection { db in
            let conditions = query.conditions
            let total = try await Self.count(on: db, table: query.source, stored: unfiltered ? "album_count" : nil, conditions: conditions)
            if query.order == .random {
                // From a random point to the end, then on from the beginning: an index range,
                // never a sort of the table.
                let first = try await Self.page(
                    on: db, table: query.source, scope: "albums", column: "id", conditions: conditions + ["id >= \(bind: query.randomStart)"], after: nil,
                    descending: false, limit: query.limit, offset: 0)
                var rows = Array(first.rows.prefix(query.limit))
                if rows.count < query.limit {
                    let rest = try await Self.page(
                        on: db, table: query.source, scope: "albums", column: "id", conditions: conditions + ["id < \(bind: query.randomStart)"], after: nil,
                        descending: false, limit: query.limit - rows.count, offset: 0)
                    rows += rest.rows.prefix(query.limit - rows.count)
                }
                return AlbumPage(albums: try rows.map(Self.album), total: total, next: nil)
            }
            let page = try await Self.page(
                on: db, table: query.source, scope: "albums", column: query.orderColumn, conditions: conditions, after: query.after,
                descending: query.descending,
                limit: query.limit, offset: query.offset, checkpoints: query.artistID == nil ? ("albums", checkpoints) : nil)
            return AlbumPage(albums: try page.rows.map(Self.album), total: total, next: page.next)
        }
    }

    public func albums(artistID: ArtistID?, limit: Int, offset: Int) async throws -> (albums: [AlbumSummary], total: Int) {
        let page = try await albums(AlbumQuery(artistID: artistID, limit: limit, offset: offset))
        return (page.albums, page.total)
    }

    static func album(_ row: any SQLRow) throws -> AlbumSummary {
        AlbumSummary(
            id: try decodeID(row, "id"),
            title: try row.decode(column: "title", as: String.self),
            artist: try row.decode(column: "artist", as: String.self),
            year: try row.decode(column: "year_min", as: Int?.self),
            trackCount: try row.decode(column: "track_count", as: Int.self),
            duration: try row.decode(column: "duration", as: Double.self),
            artworkTrackID: try row.decode(column: "artwork_track_id", as: String?.self).flatMap(TrackID.init),
            yearMax: try row.decode(column: "year_max", as: Int?.self),
            genre: try row.decode(column: "genre", as: String?.self),
            addedAt: Date(timeIntervalSince1970: try row.decode(column: "added_at", as: Double.self)),
            playCount: try row.decode(column: "play_count", as: Int.self),
            lastPlayedAt: try row.decode(column: "last_played_at", as: Double?.self).map(Date.init(timeIntervalSince1970:))
        )
    }

    // MARK: Plays

    /// Counts plays of library tracks (in one transaction) into their albums' most and
    /// recently played orders. Not a library change: the generation stays, so no snapshot
    /// or search index is read again for a play.
    public func recordPlays(_ plays: [CatalogPlays.Play]) async throws {
        guard !plays.isEmpty else { return }
        try await database.transaction { db in try await CatalogPlays.record(plays, on: db) }
    }

    // MARK: Artists

    public struct ArtistSummary: Sendable, Equatable {
        public let id: ArtistID
        public let name: String
        public let trackCount: Int
        public let albumCount: Int
    }

    public struct ArtistPage: Sendable {
        public let artists: [ArtistSummary]
        public let total: Int
        public let next: CatalogCursor?
    }

    /// Artists by name ("The " set aside), read from the name index.
    public func artists(limit: Int, offset: Int = 0, after: CatalogCursor? = nil) async throws -> ArtistPage {
        try await database.withConnection { db in
            let total = try await Self.count(on: db, table: "artists", stored: "artist_count", conditions: [])
            let page = try await Self.page(
                on: db, table: "artists", scope: "artists", column: "order_name", conditions: [], after: after, descending: false, limit: limit, offset: offset,
                checkpoints: ("artists", checkpoints))
            let artists = try page.rows.map { row in
                ArtistSummary(
                    id: try decodeID(row, "id"),
                    name: try row.decode(column: "name", as: String.self),
                    trackCount: try row.decode(column: "track_count", as: Int.self),
                    albumCount: try row.decode(column: "album_count", as: Int.self)
                )
            }
            return ArtistPage(artists: artists, total: total, next: page.next)
        }
    }

    // MARK: Pages

    /// The statements a page runs, for tests that read their plans.
    static func pageQuery(
        table: SQLQueryString, column: String, conditions: [SQLQueryString], after: CatalogCursor?, descending: Bool, limit: Int, offset: Int,
        start: CatalogCheckpoints.Start? = nil
    ) -> SQLQueryString {
        let orderBy: String = " ORDER BY " + column + (descending ? " DESC" : "")
        var all = conditions
        var skip = offset
        if let after {
            let comparison: SQLQueryString = "\(bind: after.key)"
            all.append(SQLQueryString(column + (descending ? " < " : " > ")) + comparison)
        } else if let start {
            // From a checkpoint (CatalogCheckpoints), stepping over the few rows after it.
            let from: SQLQueryString = "\(bind: start.key)"
            all.append(SQLQueryString(column + (descending ? " <= " : " >= ")) + from)
            skip = start.skip
        }
        let whereClause: SQLQueryString = all.isEmpty ? "" : " WHERE " + all.joined(separator: " AND ")
        let tail = SQLQueryString(orderBy + " LIMIT " + String(limit) + " OFFSET " + String(skip))
        let select: SQLQueryString = "SELECT * FROM " + table
        return select + whereClause + tail
    }

    /// One page in a stored key's order, and the cursor after it when more follow (one row
    /// more than the page is read to know).
    /// `checkpoints`, for an unfiltered order of a table whose keys change only with the
    /// library's generation, makes a deep offset start near its row.
    static func page(
        on db: any SQLDatabase, table: SQLQueryString, scope: String, column: String, conditions: [SQLQueryString], after: CatalogCursor?, descending: Bool,
        limit: Int,
        offset: Int,
        checkpoints: (table: String, store: CatalogCheckpoints)? = nil
    ) async throws -> (rows: [any SQLRow], next: CatalogCursor?) {
        func read(from start: CatalogCheckpoints.Start?) async throws -> [any SQLRow] {
            try await db.raw(
                pageQuery(
                    table: table, column: column, conditions: conditions, after: after, descending: descending, limit: limit + 1, offset: offset, start: start)
            ).all()
        }
        var rows: [any SQLRow]
        if after == nil, conditions.isEmpty, !descending, let checkpoints,
            let start = try await checkpoints.store.start(table: checkpoints.table, column: column, offset: offset, on: db)
        {
            rows = try await read(from: start)
            // A scan that committed meanwhile moved the rows: read again by walking the index.
            if try await CatalogCheckpoints.generation(on: db) != start.generation { rows = try await read(from: nil) }
        } else {
            rows = try await read(from: nil)
        }
        guard rows.count > limit, let last = rows.prefix(limit).last else { return (rows, nil) }
        return (Array(rows.prefix(limit)), CatalogCursor(scope: scope, column: column, key: try last.decode(column: column, as: String.self)))
    }

    /// A page's total: the library's, kept beside the generation, or the filtered rows counted
    /// through the filter's index.
    static func count(on db: any SQLDatabase, table: SQLQueryString, stored: String?, conditions: [SQLQueryString]) async throws -> Int {
        if let stored {
            return try await db.raw(SQLQueryString("SELECT " + stored + " AS n FROM library_generation WHERE id = 1")).first()?.decode(
                column: "n", as: Int.self) ?? 0
        }
        return try await db.raw(countQuery(table: table, conditions: conditions)).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    static func countQuery(table: SQLQueryString, conditions: [SQLQueryString]) -> SQLQueryString {
        "SELECT COUNT(*) AS n FROM " + table + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
    }
}
