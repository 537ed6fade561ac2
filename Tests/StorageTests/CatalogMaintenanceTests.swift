import Foundation
import JukeCore
import JukeTestSupport
import SQLKit
import Testing

@testable import Storage

/// The albums and artists rows stay right through a scan's adds, changes, moves and removals.
@Suite(.timeLimit(.minutes(5))) struct CatalogMaintenanceTests {
    static func track(
        _ folder: LibraryFolderID, _ title: String, artist: String, album: String, number: Int, genre: String? = "Rock", year: Int? = 1999,
        duration: Double = 100, art: String? = nil
    ) -> Track {
        Track(
            id: TrackID(), folderID: folder, path: "/music/\(artist)/\(album)/\(number) \(title).mp3", fileSize: 1000 + Int64(number),
            modifiedMillis: 42, format: "mp3", title: title, artist: artist, album: album, albumArtist: artist, genre: genre, year: year,
            trackNumber: number, discNumber: 1, duration: duration, artworkHash: art, addedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(number))
        )
    }

    static func apply(_ store: LibraryStore, _ folder: LibraryFolderID, _ edit: (inout LibraryStore.ScanChanges) -> Void) async throws {
        var changes = LibraryStore.ScanChanges()
        edit(&changes)
        try await store.apply(changes, folder: folder, now: Date())
    }

    @Test(arguments: TestBackend.available)
    func albumsAndArtistsFollowAddsChangesMovesAndRemovals(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let store = LibraryStore(database: db.database)
            let folder = try await store.addFolder(path: "/music", now: Date()).id
            var band = [
                Self.track(folder, "One", artist: "The Band", album: "First", number: 1, genre: "Rock", year: 2001, duration: 100, art: "h1"),
                Self.track(folder, "Two", artist: "The Band", album: "First", number: 2, genre: "Pop", year: 1999, duration: 200.5),
                Self.track(folder, "Three", artist: "The Band", album: "First", number: 3, genre: "rock", year: nil, duration: 50),
            ]
            let solo = Self.track(folder, "Solo", artist: "Beyoncé", album: "Lemonade", number: 1, genre: "Pop", year: 2016, duration: 300)
            try await Self.apply(store, folder) {
                $0.artwork["h1"] = ("image/png", Data([1]))
                $0.upserts = band + [solo]
            }
            var albums = try await store.albums(LibraryStore.AlbumQuery(order: .name, limit: 10))
            #expect(albums.total == 2)
            #expect(albums.albums.map(\.title) == ["First", "Lemonade"])
            let first = try #require(albums.albums.first)
            #expect(first.id == band[0].albumID)
            #expect(first.artist == "The Band")
            #expect(first.trackCount == 3)
            #expect(first.duration == 350.5)
            #expect(first.year == 1999)
            #expect(first.yearMax == 2001)
            #expect(first.genre == "Rock")  // two of three, "rock" and "Rock" alike
            #expect(first.artworkTrackID == band[0].id)
            #expect(first.addedAt == Date(timeIntervalSince1970: 1_700_000_001))
            var artists = try await store.artists(limit: 10)
            #expect(artists.artists.map(\.name) == ["The Band", "Beyoncé"])
            #expect(artists.artists.map(\.trackCount) == [3, 1])
            #expect(artists.total == 2)

            // Change: a track goes to another album of the same artist.
            band[2].album = "Second"
            try await Self.apply(store, folder) { $0.upserts = [band[2]] }
            albums = try await store.albums(LibraryStore.AlbumQuery(order: .name, limit: 10))
            #expect(albums.albums.map(\.title) == ["First", "Lemonade", "Second"])
            #expect(albums.albums.map(\.trackCount) == [2, 1, 1])
            #expect(albums.albums[0].duration == 300.5)
            #expect(albums.albums[0].genre == "Pop")  // a tie: the first by key
            artists = try await store.artists(limit: 10)
            #expect(artists.artists.first?.albumCount == 2)

            // Move: the file goes elsewhere; the track keeps its ID, the counts stay.
            var moved = band[1]
            moved.path = "/music/elsewhere/two.mp3"
            try await Self.apply(store, folder) {
                $0.moves = [(moved.id, moved.path)]
                $0.upserts = [moved]
            }
            albums = try await store.albums(LibraryStore.AlbumQuery(order: .name, limit: 10))
            #expect(albums.albums.map(\.trackCount) == [2, 1, 1])
            #expect(try await store.track(id: moved.id)?.path == moved.path)

            // Remove: an album that loses its last track disappears.
            try await Self.apply(store, folder) { $0.deletions = [band[2].id] }
            albums = try await store.albums(LibraryStore.AlbumQuery(order: .name, limit: 10))
            #expect(albums.albums.map(\.title) == ["First", "Lemonade"])
            #expect(albums.total == 2)
            #expect(try await store.artists(limit: 10).artists.first?.albumCount == 1)

            // Losing its artwork track, the album takes another's or none.
            try await Self.apply(store, folder) { $0.deletions = [band[0].id] }
            albums = try await store.albums(LibraryStore.AlbumQuery(order: .name, limit: 10))
            #expect(albums.albums.first?.artworkTrackID == nil)
            #expect(albums.albums.first?.year == 1999)
            #expect(albums.albums.first?.yearMax == 1999)

            // An artist renamed: the old name's row goes, the new one's comes.
            var renamed = solo
            renamed.artist = "Queen B"
            renamed.albumArtist = "Queen B"
            try await Self.apply(store, folder) { $0.upserts = [renamed] }
            artists = try await store.artists(limit: 10)
            #expect(artists.artists.map(\.name) == ["The Band", "Queen B"])
            #expect(artists.total == 2)
            albums = try await store.albums(LibraryStore.AlbumQuery(order: .artist, limit: 10))
            #expect(albums.albums.map(\.artist) == ["The Band", "Queen B"])
            #expect(albums.albums.last?.addedAt == solo.addedAt)  // still when it first came
            #expect(try await store.albums(artistID: renamed.artistID, limit: 10, offset: 0).albums.map(\.title) == ["Lemonade"])
            #expect(try await store.albums(artistID: solo.artistID, limit: 10, offset: 0).albums.isEmpty)

            // The last track goes: no albums, no artists, totals zero.
            try await Self.apply(store, folder) { $0.deletions = [band[1].id, renamed.id] }
            #expect(try await store.albums(LibraryStore.AlbumQuery(limit: 10)).total == 0)
            #expect(try await store.artists(limit: 10).artists.isEmpty)
            #expect(try await store.tracks(LibraryStore.TrackQuery(limit: 10)).total == 0)
        }
    }

    /// The migration that adds the catalog fills it from the tracks already there: rebuilt
    /// from scratch, every page reads as the scans left it.
    @Test(arguments: TestBackend.available)
    func theCatalogIsRebuiltFromExistingTracks(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let store = LibraryStore(database: db.database)
            let folder = try await store.addFolder(path: "/music", now: Date()).id
            try await Self.apply(store, folder) {
                $0.upserts = (1...12).map { Self.track(folder, "T\($0)", artist: "Artist \($0 % 3)", album: "Album \($0 % 5)", number: $0, year: 1990 + $0) }
            }
            func snapshot() async throws -> [String] {
                var out: [String] = []
                for order in LibraryStore.AlbumOrder.allCases where order != .random {
                    out += try await store.albums(LibraryStore.AlbumQuery(order: order, limit: 50)).albums.map { "\($0)" }
                }
                out += try await store.artists(limit: 50).artists.map { "\($0)" }
                for order in LibraryStore.TrackOrder.allCases {
                    out += try await store.tracks(LibraryStore.TrackQuery(order: order, limit: 50)).tracks.map(\.title)
                }
                out.append("\(try await store.tracks(LibraryStore.TrackQuery(limit: 1)).total)")
                return out
            }
            let before = try await snapshot()
            try await db.database.transaction { tx in
                for statement in [
                    "DELETE FROM albums", "DELETE FROM artists",
                    "UPDATE tracks SET order_artist = NULL, order_album = NULL, order_newest = NULL, genre_key = NULL",
                    "UPDATE library_generation SET track_count = 0, album_count = 0, artist_count = 0",
                ] {
                    try await tx.raw(SQLQueryString(statement)).run()
                }
                try await CatalogMaintenance.rebuild(on: tx)
            }
            #expect(try await snapshot() == before)
            #expect(before.count > 12 * 3)
        }
    }
}
