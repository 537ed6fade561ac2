import Foundation
import JukeCore
import JukeTestSupport
import Testing

@testable import Storage

/// Plays of tracks order the most and recently played albums, stay with a track that a
/// retag moves to another album, and survive a scan that changes the track.
@Suite(.timeLimit(.minutes(5))) struct CatalogPlaysTests {
    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }

    @Test(arguments: TestBackend.available)
    func playsOrderTheMostAndRecentlyPlayedAlbums(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let store = LibraryStore(database: db.database)
            let folder = try await store.addFolder(path: "/music", now: Date()).id
            var tracks = [
                CatalogMaintenanceTests.track(folder, "A1", artist: "Alpha", album: "Ay", number: 1),
                CatalogMaintenanceTests.track(folder, "A2", artist: "Alpha", album: "Ay", number: 2),
                CatalogMaintenanceTests.track(folder, "B1", artist: "Beta", album: "Bee", number: 1),
                CatalogMaintenanceTests.track(folder, "C1", artist: "Gamma", album: "Cee", number: 1),
            ]
            try await CatalogMaintenanceTests.apply(store, folder) { $0.upserts = tracks }
            func titles(_ order: LibraryStore.AlbumOrder) async throws -> [String] {
                try await store.albums(LibraryStore.AlbumQuery(order: order, limit: 10)).albums.map(\.title)
            }
            // Nothing played: both lists are empty.
            #expect(try await titles(.frequent).isEmpty)
            #expect(try await store.albums(LibraryStore.AlbumQuery(order: .recent, limit: 10)).total == 0)

            try await store.recordPlays([
                .init(track: tracks[0].id, at: Self.at(1)), .init(track: tracks[1].id, at: Self.at(2)), .init(track: tracks[0].id, at: Self.at(3)),
                .init(track: tracks[2].id, at: Self.at(10)),
            ])
            #expect(try await titles(.frequent) == ["Ay", "Bee"])
            #expect(try await titles(.recent) == ["Bee", "Ay"])
            let ay = try #require(try await store.albums(LibraryStore.AlbumQuery(order: .frequent, limit: 10)).albums.first)
            #expect(ay.playCount == 3 && ay.lastPlayedAt == Self.at(3))
            #expect(try await store.albums(LibraryStore.AlbumQuery(order: .recent, limit: 10)).total == 2)

            // Paged by cursor as any other order.
            let first = try await store.albums(LibraryStore.AlbumQuery(order: .recent, limit: 1))
            #expect(first.albums.map(\.title) == ["Bee"])
            let second = try await store.albums(LibraryStore.AlbumQuery(order: .recent, limit: 1, after: try #require(first.next)))
            #expect(second.albums.map(\.title) == ["Ay"] && second.next == nil)

            // A play long ago does not make an album recent; a new one does.
            try await store.recordPlays([.init(track: tracks[3].id, at: Self.at(-100)), .init(track: tracks[3].id, at: Self.at(20))])
            #expect(try await titles(.recent) == ["Cee", "Bee", "Ay"])
            #expect(try await titles(.frequent) == ["Ay", "Cee", "Bee"])

            // A scan that changes a track keeps its plays; a retag takes them to its new album.
            tracks[1].album = "Bee"
            tracks[1].albumArtist = "Beta"
            try await CatalogMaintenanceTests.apply(store, folder) { $0.upserts = [tracks[1]] }
            let counts = Dictionary(
                uniqueKeysWithValues: try await store.albums(LibraryStore.AlbumQuery(order: .frequent, limit: 10)).albums.map { ($0.title, $0.playCount) })
            #expect(counts == ["Ay": 2, "Bee": 2, "Cee": 2])

            // A play of a track no longer in the library counts nowhere.
            try await CatalogMaintenanceTests.apply(store, folder) { $0.deletions = [tracks[3].id] }
            try await store.recordPlays([.init(track: tracks[3].id, at: Self.at(30))])
            #expect(try await titles(.recent) == ["Bee", "Ay"])
            // Plays change no track the search or the snapshots read: the generation stays.
            let generation = try await store.generation()
            try await store.recordPlays([.init(track: tracks[0].id, at: Self.at(40))])
            #expect(try await store.generation() == generation)
            #expect(try await titles(.recent) == ["Ay", "Bee"])
        }
    }
}
