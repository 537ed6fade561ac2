import Foundation
import JukeCore
import JukeTestSupport
import SQLKit
import Testing

@testable import Storage

/// The genres and years lists are rows each scan keeps: after every add, change and removal
/// they read what counting every track would.
@Suite(.timeLimit(.minutes(5))) struct CatalogFacetsTests {
    /// The lists as the tracks say, counted the old way (every track grouped).
    static func counted(_ db: TestDatabase) async throws -> [String] {
        try await db.database.withConnection { conn in
            var out: [String] = []
            for query in [OldCatalogQueries.genres, OldCatalogQueries.years] {
                out += try await conn.raw(SQLQueryString(query)).all().map {
                    "\(try $0.decode(column: "value", as: String.self))=\(try $0.decode(column: "n", as: Int.self))"
                }
            }
            return out.sorted()
        }
    }

    static func kept(_ store: LibraryStore) async throws -> [String] {
        var out: [String] = []
        for kind in [LibraryStore.Facet.genre, .year] { out += try await store.facet(kind).map { "\($0.value)=\($0.count)" } }
        return out.sorted()
    }

    @Test(arguments: TestBackend.available)
    func genresAndYearsFollowAddsChangesAndRemovals(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let store = LibraryStore(database: db.database)
            let folder = try await store.addFolder(path: "/music", now: Date()).id
            var tracks = [
                CatalogMaintenanceTests.track(folder, "One", artist: "A", album: "X", number: 1, genre: "Rock", year: 1999),
                CatalogMaintenanceTests.track(folder, "Two", artist: "A", album: "X", number: 2, genre: "rock", year: 1999),
                CatalogMaintenanceTests.track(folder, "Three", artist: "B", album: "Y", number: 3, genre: "Pop", year: 2001),
                CatalogMaintenanceTests.track(folder, "Four", artist: "B", album: "Y", number: 4, genre: nil, year: nil),
            ]
            try await CatalogMaintenanceTests.apply(store, folder) { $0.upserts = tracks }
            #expect(try await store.facet(.genre).map(\.value) == ["Pop", "Rock", "rock"])
            #expect(try await store.facet(.year).map { "\($0.value)=\($0.count)" } == ["1999=2", "2001=1"])
            #expect(try await Self.kept(store) == Self.counted(db))

            // A change of genre and year: the old ones lose the track, the new ones gain it.
            tracks[2].genre = "Rock"
            tracks[2].year = 1999
            tracks[3].genre = "Jazz"
            tracks[3].year = 1958
            try await CatalogMaintenanceTests.apply(store, folder) { $0.upserts = [tracks[2], tracks[3]] }
            #expect(try await store.facet(.genre).map { "\($0.value)=\($0.count)" } == ["Jazz=1", "Rock=2", "rock=1"])
            #expect(try await store.facet(.year).map { "\($0.value)=\($0.count)" } == ["1958=1", "1999=3"])
            #expect(try await Self.kept(store) == Self.counted(db))

            // Removals: a genre and a year no track has any more are gone.
            try await CatalogMaintenanceTests.apply(store, folder) { $0.deletions = [tracks[1].id, tracks[3].id] }
            #expect(try await store.facet(.genre).map { "\($0.value)=\($0.count)" } == ["Rock=2"])
            #expect(try await store.facet(.year).map { "\($0.value)=\($0.count)" } == ["1999=2"])
            #expect(try await Self.kept(store) == Self.counted(db))

            // Rebuilt from the tracks (the migration), the lists are the same.
            let before = try await Self.kept(store)
            try await db.database.transaction { tx in
                try await tx.raw("DELETE FROM catalog_facets").run()
                try await CatalogMaintenance.rebuild(on: tx)
            }
            #expect(try await Self.kept(store) == before)
        }
    }
}
