import Foundation
import JukeCore
import JukeTestSupport
import SQLKit
import Testing

@testable import Storage

/// A deep page read from a checkpoint is the page an OFFSET walk reads, at every depth, for
/// tracks, albums and artists, before and after the library changes, on both databases.
@Suite(.timeLimit(.minutes(5))) struct CatalogCheckpointsTests {
    /// 67 tracks by 13 artists on 67 albums: positions that are and are not checkpoints, the
    /// last page, and past the end.
    static func fill(_ store: LibraryStore, count: Int = 67, from first: Int = 1) async throws -> LibraryFolderID {
        var folder: LibraryFolderID
        if let existing = try await store.folders().first?.id { folder = existing } else { folder = try await store.addFolder(path: "/music", now: Date()).id }
        try await CatalogMaintenanceTests.apply(store, folder) { changes in
            changes.upserts = (first..<(first + count)).map {
                CatalogMaintenanceTests.track(folder, "T\($0)", artist: "Artist \($0 % 13)", album: "Album \($0 % 23)", number: $0)
            }
        }
        return folder
    }

    /// The ids of the page an OFFSET walk reads: what a checkpoint must give.
    static func walked(_ db: any JukeDatabase, table: String, column: String, limit: Int, offset: Int) async throws -> [String] {
        try await db.withConnection { conn in
            try await conn.raw(
                SQLQueryString("SELECT id FROM " + table + " ORDER BY " + column + " LIMIT " + String(limit) + " OFFSET " + String(offset))
            ).all().map { try $0.decode(column: "id", as: String.self) }
        }
    }

    static let depths = [0, 4, 5, 6, 9, 10, 11, 23, 34, 50, 59, 60, 61, 64, 66, 67, 70, 500]

    static func expectEveryDepthAgrees(_ store: LibraryStore, _ db: any JukeDatabase, note: String) async throws {
        for offset in depths {
            for order in LibraryStore.TrackOrder.allCases {
                let query = LibraryStore.TrackQuery(order: order, limit: 7, offset: offset)
                let page = try await store.tracks(query).tracks.map(\.id.description)
                let walked = try await walked(db, table: "tracks", column: query.orderColumn, limit: 7, offset: offset)
                #expect(page == walked, "tracks by \(order) at \(offset), \(note)")
            }
            for order in [LibraryStore.AlbumOrder.artist, .name, .year, .newest] {
                let query = LibraryStore.AlbumQuery(order: order, limit: 3, offset: offset)
                let page = try await store.albums(query).albums.map(\.id.description)
                let walked = try await walked(db, table: "albums", column: query.orderColumn, limit: 3, offset: offset)
                #expect(page == walked, "albums by \(order) at \(offset), \(note)")
            }
            let artists = try await store.artists(limit: 2, offset: offset).artists.map(\.id.description)
            #expect(artists == (try await walked(db, table: "artists", column: "order_name", limit: 2, offset: offset)), "artists at \(offset), \(note)")
        }
    }

    @Test(arguments: TestBackend.available)
    func aDeepPageFromACheckpointIsThePageTheIndexWalkReads(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let checkpoints = CatalogCheckpoints(spacing: 5, rebuildInterval: .zero)
            let store = LibraryStore(database: db.database, checkpoints: checkpoints)
            _ = try await Self.fill(store)
            try await Self.expectEveryDepthAgrees(store, db.database, note: "first")
            // The checkpoints were built: every fifth key (13 of 67 tracks, 13 of the 67 albums
            // (each title by several artists), 2 of 13 artists).
            #expect(checkpoints.keys(of: "tracks", column: "order_artist")?.count == 13)
            #expect(checkpoints.keys(of: "albums", column: "order_name")?.count == 13)
            #expect(checkpoints.keys(of: "artists", column: "order_name")?.count == 2)
            // A change moves rows: the next deep page builds again from the new generation.
            _ = try await Self.fill(store, count: 40, from: 1000)
            try await Self.expectEveryDepthAgrees(store, db.database, note: "after 40 tracks were added")
        }
    }

    /// While the library changes faster than checkpoints may be rebuilt, a deep page walks
    /// the index: never a position from the generation before.
    @Test(arguments: TestBackend.available)
    func staleCheckpointsAreNeverUsed(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let checkpoints = CatalogCheckpoints(spacing: 5, rebuildInterval: .seconds(3600))
            let store = LibraryStore(database: db.database, checkpoints: checkpoints)
            let folder = try await Self.fill(store)
            try await Self.expectEveryDepthAgrees(store, db.database, note: "built once")
            // New tracks sort first ("Aardvark"): with the old checkpoints every page would be
            // off by their number.
            try await CatalogMaintenanceTests.apply(store, folder) { changes in
                changes.upserts = (1...9).map { CatalogMaintenanceTests.track(folder, "A\($0)", artist: "Aardvark", album: "Aa", number: 500 + $0) }
            }
            try await Self.expectEveryDepthAgrees(store, db.database, note: "changed, not rebuilt")
        }
    }
}
