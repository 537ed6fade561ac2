public import Foundation
public import JukeCore
import SQLKit

extension LibraryStore {
    /// A track as the search index reads it (JukeCore's, which the index holds as it is).
    public typealias SearchRow = SearchableTrack

    /// Every track as the search index reads it, and the generation they are at (read
    /// first: a change that lands meanwhile is seen again, never missed).
    public func searchRows() async throws -> (generation: Int, rows: [SearchRow]) {
        let generation = try await generation()
        let rows = try await database.withConnection { db in
            try await db.raw("SELECT id, title, artist, album, album_artist, composer, genre, year, order_artist FROM tracks").all().map { row in
                SearchRow(
                    id: try decodeID(row, "id"), title: try row.decode(column: "title", as: String.self),
                    artist: try row.decode(column: "artist", as: String.self), album: try row.decode(column: "album", as: String.self),
                    albumArtist: try row.decode(column: "album_artist", as: String.self), composer: try row.decode(column: "composer", as: String?.self),
                    genre: try row.decode(column: "genre", as: String?.self), year: try row.decode(column: "year", as: Int?.self),
                    order: try row.decode(column: "order_artist", as: String?.self) ?? "")
            }
        }
        return (generation, rows)
    }

    /// These tracks, in this order (those no longer in the library left out): a page of
    /// search hits, which the index keeps as IDs only.
    public func tracks(ids: [TrackID]) async throws -> [Track] {
        guard !ids.isEmpty else { return [] }
        let found = try await database.withConnection { db in
            var out: [TrackID: Track] = [:]
            for part in CatalogMaintenance.chunks(Set(ids.map(\.description))) {
                for row in try await db.raw("SELECT * FROM tracks WHERE id IN " + CatalogMaintenance.inList(part)).all() {
                    let track = try Self.track(row)
                    out[track.id] = track
                }
            }
            return out
        }
        return ids.compactMap { found[$0] }
    }

    /// The search the database answers while the in-memory index is being built: the tracks
    /// with a word starting with each of `words` (folded as `SearchText.tokens` folds them),
    /// in the catalog's artist order. No ranking and no typo correction; a read of every
    /// track's stored words, tens of milliseconds at 100,000 tracks, never a wait for the index.
    public func searchTracks(words: [String], limit: Int, offset: Int) async throws -> (tracks: [Track], total: Int) {
        let conditions = Self.searchConditions(words)
        guard !conditions.isEmpty else { return ([], 0) }
        return try await database.withConnection { db in
            let total = try await db.raw(Self.countQuery(table: "tracks", conditions: conditions)).first()?.decode(column: "n", as: Int.self) ?? 0
            let rows = try await db.raw(
                Self.pageQuery(table: "tracks", column: "order_artist", conditions: conditions, after: nil, descending: false, limit: limit, offset: offset)
            ).all()
            return (try rows.map(Self.track), total)
        }
    }

    /// One condition per distinct word: a stored word starts with it. The tokenizer's words
    /// are letters and digits; one holding a LIKE wildcard anyway is left out, never matched
    /// as a wildcard.
    static func searchConditions(_ words: [String]) -> [SQLQueryString] {
        Array(Set(words)).sorted().filter { !$0.isEmpty && !$0.contains(where: { "%_\\".contains($0) }) }.map {
            "search_words LIKE \(bind: "% " + $0 + "%")"
        }
    }
}
