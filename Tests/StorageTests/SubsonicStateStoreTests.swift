import Foundation
import JukeCore
import JukeTestSupport
import SQLKit
import Testing

@testable import Storage

/// What accounts keep through Subsonic players (platform migration 12), on SQLite and
/// PostgreSQL: stars and ratings, playlists, play queues; each account's own, and gone
/// with its account.
@Suite(.timeLimit(.minutes(5))) struct SubsonicStateStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: TestBackend.available)
    func starsAndRatings(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let users = UserStore(database: db.database)
            let ann = testUser("ann")
            let bob = testUser("bob")
            try await users.create(ann, passwordHash: "h")
            try await users.create(bob, passwordHash: "h")
            let store = SubsonicAnnotationStore(database: db.database)
            try await store.setStarred(["tr-1", "al-1"], user: ann.id, starred: true, now: Self.t0)
            // Starring again keeps the first star's date; a later star is listed first.
            try await store.setStarred(["tr-1", "tr-2"], user: ann.id, starred: true, now: Self.t0.addingTimeInterval(60))
            let songs = try await store.starred(user: ann.id, kind: "tr-", limit: 10, offset: 0)
            #expect(songs.map(\.item) == ["tr-2", "tr-1"] && songs.last?.at == Self.t0)
            #expect(try await store.starred(user: ann.id, kind: "tr-", limit: 1, offset: 1).map(\.item) == ["tr-1"])
            #expect(try await store.starred(user: bob.id, kind: "tr-", limit: 10, offset: 0).isEmpty)

            try await store.setRating("al-1", rating: 3, user: ann.id)
            try await store.setRating("al-2", rating: 5, user: ann.id)
            try await store.setRating("al-2", rating: 2, user: bob.id)
            #expect(try await store.rated(user: ann.id, kind: "al-", limit: 10, offset: 0) == ["al-2", "al-1"])
            let found = try await store.annotations(user: ann.id, items: ["al-1", "tr-1", "tr-9"])
            #expect(found["al-1"] == .init(starredAt: Self.t0, rating: 3) && found["tr-1"]?.rating == nil && found["tr-9"] == nil)
            #expect(try await store.annotations(user: bob.id, items: ["al-1", "al-2"]) == ["al-2": .init(rating: 2)])

            // Unstarred and unrated, an item leaves no row behind.
            try await store.setStarred(["tr-1", "tr-2"], user: ann.id, starred: false, now: Self.t0)
            try await store.setRating("al-2", rating: nil, user: ann.id)
            #expect(try await store.annotations(user: ann.id, items: ["tr-1", "tr-2", "al-2"]).isEmpty)
            #expect(try await Self.rows(db.database, "subsonic_annotations") == 2)

            // Gone with the account.
            try await Self.deleteUser(ann.id, db.database)
            #expect(try await Self.rows(db.database, "subsonic_annotations") == 1)
        }
    }

    @Test(arguments: TestBackend.available)
    func playlists(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let users = UserStore(database: db.database)
            let ann = testUser("ann")
            let bob = testUser("bob")
            try await users.create(ann, passwordHash: "h")
            try await users.create(bob, passwordHash: "h")
            let store = SubsonicPlaylistStore(database: db.database)
            let id = UUID()
            try await store.create(id: id, owner: ann.id, name: "Mix", trackIDs: ["a", "b", "a"], now: Self.t0)
            let made = try #require(try await store.playlist(id: id, readableBy: ann.id))
            #expect(made.trackIDs == ["a", "b", "a"] && made.ownerName == "ann" && !made.isPublic && made.comment == nil)
            #expect(try await store.playlist(id: id, readableBy: bob.id) == nil)
            #expect(try await store.playlists(readableBy: bob.id).isEmpty)

            var change = SubsonicPlaylistStore.Change()
            change.removeIndexes = [0, 2]
            change.addSongs = ["c"]
            change.comment = "note"
            change.isPublic = true
            #expect(try await store.change(id: id, owner: ann.id, change, now: Self.t0.addingTimeInterval(5)) == .changed)
            let changed = try #require(try await store.playlist(id: id, readableBy: bob.id))
            #expect(changed.trackIDs == ["b", "c"] && changed.comment == "note" && changed.isPublic && changed.changedAt > changed.createdAt)
            #expect(try await store.playlists(readableBy: bob.id, owner: ann.id).map(\.id) == [id])
            #expect(try await store.change(id: id, owner: bob.id, .init(), now: Self.t0) == .notOwner)
            #expect(try await store.delete(id: id, owner: bob.id) == .notOwner)
            var bad = SubsonicPlaylistStore.Change()
            bad.removeIndexes = [2]
            #expect(try await store.change(id: id, owner: ann.id, bad, now: Self.t0) == .badIndex(2))
            #expect(try await store.change(id: UUID(), owner: ann.id, .init(), now: Self.t0) == .notFound)

            // A private one of another's is not found; gone with its account.
            let hidden = UUID()
            try await store.create(id: hidden, owner: bob.id, name: "Mine", trackIDs: [], now: Self.t0)
            #expect(try await store.change(id: hidden, owner: ann.id, .init(), now: Self.t0) == .notFound)
            #expect(try await store.playlists(readableBy: ann.id).map(\.name) == ["Mix"])
            try await Self.deleteUser(ann.id, db.database)
            #expect(try await Self.rows(db.database, "subsonic_playlists") == 1)
            #expect(try await Self.rows(db.database, "subsonic_playlist_songs") == 0)
            #expect(try await store.delete(id: hidden, owner: bob.id) == .changed)
            #expect(try await Self.rows(db.database, "subsonic_playlists") == 0)
        }
    }

    @Test(arguments: TestBackend.available)
    func playQueues(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let users = UserStore(database: db.database)
            let ann = testUser("ann")
            try await users.create(ann, passwordHash: "h")
            let store = SubsonicPlayQueueStore(database: db.database)
            #expect(try await store.queue(user: ann.id) == nil)
            let queue = SubsonicPlayQueueStore.Queue(trackIDs: ["a", "b", "a"], currentIndex: 2, positionMillis: 900, changedAt: Self.t0, changedBy: "Phone")
            try await store.save(queue, user: ann.id)
            #expect(try await store.queue(user: ann.id) == queue)
            var next = queue
            next.currentIndex = 0
            try await store.save(next, user: ann.id)
            #expect(try await store.queue(user: ann.id)?.currentIndex == 0)
            try await store.save(.init(trackIDs: [], currentIndex: nil, positionMillis: 0, changedAt: Self.t0, changedBy: ""), user: ann.id)
            #expect(try await store.queue(user: ann.id) == nil)
            try await store.save(queue, user: ann.id)
            try await Self.deleteUser(ann.id, db.database)
            #expect(try await Self.rows(db.database, "subsonic_play_queues") == 0)
        }
    }

    static func rows(_ database: any JukeDatabase, _ table: String) async throws -> Int {
        try await database.withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first()?.decode(column: "n", as: Int.self) ?? -1
        }
    }

    static func deleteUser(_ id: UserID, _ database: any JukeDatabase) async throws {
        try await database.withConnection { db in try await db.raw("DELETE FROM users WHERE id = \(bind: id.description)").run() }
    }
}
