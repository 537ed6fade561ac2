import Foundation
import JukeCore
import JukeTestSupport
import Testing

@testable import Storage

@Suite(.timeLimit(.minutes(5))) struct LibraryStoreTests {
    static func track(
        _ folder: LibraryFolderID, _ title: String, artist: String, album: String, number: Int, genre: String = "Rock", year: Int = 1999, art: String? = nil
    ) -> Track {
        Track(
            id: TrackID(), folderID: folder, path: "/music/\(artist)/\(album)/\(number) \(title).mp3", fileSize: 1000 + Int64(number),
            modifiedMillis: 42, format: "mp3", title: title, artist: artist, album: album, albumArtist: artist,
            genre: genre, year: year, trackNumber: number, discNumber: 1, duration: 200.5, artworkHash: art,
            addedAt: Date(timeIntervalSince1970: 1_700_000_000)
        )
    }

    /// "Recently added": the newest tracks first, in pages that never shuffle (a scan's tracks,
    /// added at one time, in artist order).
    @Test(arguments: TestBackend.available)
    func pagesTracksNewestFirst(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let store = LibraryStore(database: db.database)
            let folder = try await store.addFolder(path: "/music", now: Date())
            func added(_ title: String, _ artist: String, _ day: Double) -> Track {
                var track = Self.track(folder.id, title, artist: artist, album: "\(artist) Album", number: 1)
                track.addedAt = Date(timeIntervalSince1970: 1_700_000_000 + day * 86_400)
                return track
            }
            var changes = LibraryStore.ScanChanges()
            changes.upserts = [added("Old", "Abba", 0), added("Newest", "Zappa", 2), added("Middle B", "Blur", 1), added("Middle A", "Air", 1)]
            try await store.apply(changes, folder: folder.id, now: Date())
            let newest = try await store.tracks(filter: .init(), order: .newest, limit: 10, offset: 0)
            #expect(newest.tracks.map(\.title) == ["Newest", "Middle A", "Middle B", "Old"])
            #expect(newest.total == 4)
            let second = try await store.tracks(filter: .init(), order: .newest, limit: 2, offset: 2)
            #expect(second.tracks.map(\.title) == ["Middle B", "Old"])
            #expect(try await store.tracks(filter: .init(), limit: 10, offset: 0).tracks.map(\.title) == ["Old", "Middle A", "Middle B", "Newest"])
        }
    }

    @Test(arguments: TestBackend.available)
    func storesTracksAndGroupsThemIntoAlbumsArtistsAndFacets(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let store = LibraryStore(database: db.database)
            let folder = try await store.addFolder(path: "/music", now: Date())
            #expect(try await store.addFolder(path: "/music", now: Date()).id == folder.id)
            let before = try await store.generation()

            var changes = LibraryStore.ScanChanges()
            let artBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x00, 0x01])
            changes.artwork["abc"] = ("image/png", artBytes)
            let tracks = [
                Self.track(folder.id, "Second", artist: "The Band", album: "First Album", number: 2, art: "abc"),
                Self.track(folder.id, "First", artist: "The Band", album: "First Album", number: 1, art: "abc"),
                Self.track(folder.id, "Solo", artist: "Beyoncé", album: "Lemonade", number: 1, genre: "Pop", year: 2016),
            ]
            changes.upserts = tracks
            changes.issues = [("/music/bad.mp3", "truncated at byte 0")]
            try await store.apply(changes, folder: folder.id, now: Date())
            #expect(try await store.generation() == before + 1)

            let all = try await store.tracks(filter: .init(), limit: 10, offset: 0)
            #expect(all.total == 3)
            let album = try await store.tracks(filter: .init(albumID: tracks[0].albumID), limit: 10, offset: 0)
            #expect(album.tracks.map(\.title) == ["First", "Second"])
            #expect(try await store.tracks(filter: .init(genre: "pop"), limit: 10, offset: 0).tracks.map(\.title) == ["Solo"])
            #expect(try await store.tracks(filter: .init(year: 1999), limit: 1, offset: 1).tracks.count == 1)

            let albums = try await store.albums(artistID: nil, limit: 10, offset: 0)
            #expect(albums.total == 2)
            #expect(albums.albums.first { $0.title == "First Album" }?.trackCount == 2)
            #expect(albums.albums.first { $0.title == "First Album" }?.artworkTrackID != nil)
            let artists = try await store.artists(limit: 10, offset: 0)
            // "The Band" under B, before "Beyoncé".
            #expect(artists.artists.map(\.name) == ["The Band", "Beyoncé"])
            #expect(try await store.facet(.genre).map(\.value) == ["Pop", "Rock"])
            #expect(try await store.facet(.year).map(\.value) == ["1999", "2016"])

            let art = try #require(try await store.artwork(hash: "abc"))
            #expect(art.data == artBytes)
            #expect(try await store.scanIssues() == [.init(path: "/music/bad.mp3", reason: "truncated at byte 0")])

            var update = LibraryStore.ScanChanges()
            var changed = tracks[2]
            changed.title = "Solo (Live)"
            update.upserts = [changed]
            update.deletions = [tracks[0].id]
            update.resolvedIssuePaths = ["/music/bad.mp3"]
            try await store.apply(update, folder: folder.id, now: Date())
            #expect(try await store.track(id: tracks[2].id)?.title == "Solo (Live)")
            #expect(try await store.track(id: tracks[0].id) == nil)
            #expect(try await store.scanIssues().isEmpty)
            let reloaded = try #require(try await store.track(id: tracks[1].id))
            #expect(reloaded == tracks[1])
        }
    }

    @Test(arguments: TestBackend.available)
    func aFailedScanBatchChangesNothing(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let store = LibraryStore(database: db.database)
            let folder = try await store.addFolder(path: "/m", now: Date())
            let good = Self.track(folder.id, "Kept", artist: "A", album: "B", number: 1)
            var first = LibraryStore.ScanChanges()
            first.upserts = [good]
            try await store.apply(first, folder: folder.id, now: Date())
            // A batch whose second track names a folder that does not exist (a foreign key
            // violation) rolls back whole, including the deletion that ran before it.
            var bad = LibraryStore.ScanChanges()
            let fresh = Self.track(folder.id, "New", artist: "A", album: "B", number: 3)
            let orphan = Self.track(LibraryFolderID(), "Orphan", artist: "A", album: "B", number: 2)
            bad.upserts = [fresh, orphan]
            bad.deletions = [good.id]
            let refused = await #expect(throws: (any Error).self) { try await store.apply(bad, folder: folder.id, now: Date()) }
            // The database's own refusal (SQLite and PostgreSQL word it alike).
            #expect(String(reflecting: refused).lowercased().contains("foreign key"), "\(String(reflecting: refused))")
            let after = try await store.allTracks()
            #expect(after.map(\.title) == ["Kept"])
        }
    }
}
