import Back2Back
import Foundation
import JukeCore
import JukeTestSupport
import Testing

@testable import Back2BackServer
@testable import Storage

/// Back2Back sessions survive a restart exactly, a stale writer cannot overwrite a newer turn,
/// personas start as the built-ins, and song memory keeps 24 hours per account and persona.
@Suite(.timeLimit(.minutes(5))) struct Back2BackStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func users(_ db: TestDatabase, _ names: [String]) async throws -> [User] {
        let store = UserStore(database: db.database)
        let all = names.map { testUser($0) }
        for u in all { try await store.create(u, passwordHash: "h") }
        return all
    }

    @Test(arguments: TestBackend.available)
    func aSessionIsStoredChangedAndRestoredExactly(backend: TestBackend) async throws {
        try await TestDatabase.with(backend, schemas: [.back2back]) { db in
            let people = try await Self.users(db, ["dj", "guest"])
            let store = Back2BackStore(database: db.database)
            let session = DJSession(host: people[0].id, persona: PersonaID(), at: Self.now)
            try await store.create(session, title: "Friday", inviteToken: "token-1")
            let loaded = try #require(try await store.load(session.id))
            #expect(loaded.session == session && loaded.title == "Friday" && loaded.version == 1)
            #expect(try await store.sessionID(inviteToken: "token-1") == session.id)

            let song = Song(track: TrackID(), title: "Canon in D", artist: "Johann Pachelbel", duration: 25, genre: "Baroque", year: 1680)
            let host = people[0].id
            let guest = people[1].id
            let result = try await store.update(session.id) { s in
                var generator = SplitMix64(seed: 1)
                var actions = try s.apply(.join(guest), at: Self.now, using: &generator)
                actions += try s.apply(.pick(song, by: host), at: Self.now + 1, using: &generator)
                return actions
            }
            #expect(result.version == 2)
            #expect(result.actions.contains { if case .play = $0 { true } else { false } })
            let again = try #require(try await store.load(session.id))
            #expect(again.session == result.session && again.version == 2)
            #expect(again.session.nowPlaying?.song == song)
            // The guest now lists the session too.
            let listed = try await store.sessions(for: guest, limit: 10, offset: 0)
            #expect(listed.total == 1 && listed.items.first?.songCount == 1 && listed.items.first?.title == "Friday")

            // A refused event stores nothing.
            await #expect(throws: SessionError.self) {
                _ = try await store.update(session.id) { s in
                    var generator = SplitMix64(seed: 2)
                    return try s.apply(.pick(song, by: host), at: Self.now + 2, using: &generator)
                }
            }
            #expect(try await store.load(session.id)?.version == 2)
            try await store.delete(session.id)
            #expect(try await store.load(session.id) == nil)
            #expect(try await store.sessions(for: guest, limit: 10, offset: 0).total == 0)
        }
    }

    @Test(arguments: TestBackend.available)
    func concurrentPicksForOneTurnAcceptOnlyOne(backend: TestBackend) async throws {
        try await TestDatabase.with(backend, schemas: [.back2back]) { db in
            let people = try await Self.users(db, ["dj"])
            let host = people[0].id
            let store = Back2BackStore(database: db.database)
            let session = DJSession(host: host, persona: PersonaID(), at: Self.now)
            try await store.create(session, title: "Race", inviteToken: "race")
            // Two servers (two store values) take a pick for the same turn at once.
            let other = Back2BackStore(database: db.database)
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for (n, s) in [store, other].enumerated() {
                    group.addTask {
                        let song = Song(track: TrackID(), title: "Song \(n)", artist: "Artist \(n)", duration: 100)
                        do {
                            _ = try await s.update(session.id) { state in
                                var generator = SplitMix64(seed: UInt64(n))
                                return try state.apply(.pick(song, by: host), at: Self.now, using: &generator)
                            }
                            return true
                        } catch {
                            return false
                        }
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            let final = try #require(try await store.load(session.id))
            #expect(final.version == 2 && final.session.entries.count == 1)
        }
    }

    @Test(arguments: TestBackend.available)
    func personasStartAsTheBuiltInsAndAreTheOwnersToChange(backend: TestBackend) async throws {
        try await TestDatabase.with(backend, schemas: [.back2back]) { db in
            let people = try await Self.users(db, ["a", "b"])
            let store = Back2BackStore(database: db.database)
            let mine = try await store.personas(of: people[0].id, now: Self.now)
            #expect(mine.map(\.name) == ["Modern Electronic DJ", "Rare Groove Collector"])
            #expect(mine.allSatisfy { $0.owner == people[0].id })
            // Asking again does not seed again; another account gets its own copies.
            #expect(try await store.personas(of: people[0].id, now: Self.now).map(\.id) == mine.map(\.id))
            let theirs = try await store.personas(of: people[1].id, now: Self.now)
            #expect(Set(theirs.map(\.id)).isDisjoint(with: mine.map(\.id)))

            var custom = Persona(owner: people[0].id, name: "1970s NYC crate digger", description: "Disco and salsa", updatedAt: Self.now)
            custom.taste = Taste(genres: ["Disco", "Salsa"], years: 1970...1979)
            try await store.save(custom)
            custom.styleGuide = "Loft parties."
            try await store.save(custom)
            #expect(try await store.persona(custom.id) == custom)
            #expect(try await store.personas(of: people[0].id, now: Self.now).count == 3)
            try await store.deletePersona(mine[0].id)
            #expect(try await store.personas(of: people[0].id, now: Self.now).map(\.name) == ["1970s NYC crate digger", "Rare Groove Collector"])
            // Deleting them all does not bring the built-ins back.
            for p in try await store.personas(of: people[0].id, now: Self.now) { try await store.deletePersona(p.id) }
            #expect(try await store.personas(of: people[0].id, now: Self.now).isEmpty)
        }
    }

    @Test(arguments: TestBackend.available)
    func settingsDefaultAndPersist(backend: TestBackend) async throws {
        try await TestDatabase.with(backend, schemas: [.back2back]) { db in
            let people = try await Self.users(db, ["a"])
            let store = Back2BackStore(database: db.database)
            #expect(try await store.settings(of: people[0].id, now: Self.now) == DJSettings())
            var changed = DJSettings()
            changed.crossfadeSeconds = 8
            changed.songSelection = .init(model: "gpt-5", effort: .high)
            try await store.save(changed, of: people[0].id, now: Self.now)
            #expect(try await store.settings(of: people[0].id, now: Self.now) == changed)
        }
    }

    @Test(arguments: TestBackend.available)
    func songMemoryKeepsADayPerAccountAndPersona(backend: TestBackend) async throws {
        try await TestDatabase.with(backend, schemas: [.back2back]) { db in
            let people = try await Self.users(db, ["a", "b"])
            let store = Back2BackStore(database: db.database)
            let persona = PersonaID()
            let song = Song(track: TrackID(), title: "Let It Be", artist: "The Beatles", duration: 240, isrc: "GBAYE0601690")
            try await store.remember(song, persona: persona, owner: people[0].id, at: Self.now)
            try await store.remember(song, persona: persona, owner: people[0].id, at: Self.now + 60)  // once, refreshed
            let memory = try await store.memory(persona: persona, owner: people[0].id, at: Self.now + 3600)
            #expect(memory.recent(persona: persona, at: Self.now + 3600).count == 1)
            #expect(memory.recalls(SongKey(artist: "Beatles", title: "Let It Be (Remastered)"), persona: persona, at: Self.now + 3600))
            #expect(memory.recalls(SongKey(artist: "?", title: "?", isrc: "GBAYE0601690"), persona: persona, at: Self.now + 3600))
            // Not for another account or persona, and not after a day.
            #expect(try await store.memory(persona: persona, owner: people[1].id, at: Self.now).songs.isEmpty)
            #expect(try await store.memory(persona: PersonaID(), owner: people[0].id, at: Self.now).songs.isEmpty)
            #expect(try await store.memory(persona: persona, owner: people[0].id, at: Self.now + 60 + 86_400).songs.isEmpty)
            try await store.pruneMemory(before: Self.now + 60 + 86_400)
            try await store.remember(song, persona: persona, owner: people[0].id, at: Self.now)
            try await store.clearMemory(owner: people[0].id)
            #expect(try await store.memory(persona: persona, owner: people[0].id, at: Self.now).songs.isEmpty)
        }
    }
}

/// The migration that counts the songs sessions played before plays were counted.
@Suite(.timeLimit(.minutes(5))) struct SessionPlaysTests {
    @Test(arguments: TestBackend.available)
    func theSongsSessionsPlayedCountAsPlaysOfTheirAlbums(backend: TestBackend) async throws {
        try await TestDatabase.with(backend, schemas: [.back2back]) { db in
            let people = try await Back2BackStoreTests.users(db, ["dj"])
            let library = LibraryStore(database: db.database)
            let folder = try await library.addFolder(path: "/music", now: Date()).id
            let tracks = ["One", "Two"].enumerated().map { i, title in
                Track(
                    id: TrackID(), folderID: folder, path: "/music/\(title).mp3", fileSize: 1, modifiedMillis: 1, format: "mp3", title: title,
                    artist: "Band \(i)", album: "Album \(i)", albumArtist: "Band \(i)", duration: 30, addedAt: Date())
            }
            var changes = LibraryStore.ScanChanges()
            changes.upserts = tracks
            try await library.apply(changes, folder: folder, now: Date())
            let songs = tracks.map { Song(track: $0.id, title: $0.title, artist: $0.artist, album: $0.album, duration: 30) }

            let store = Back2BackStore(database: db.database)
            var session = DJSession(host: people[0].id, persona: PersonaID(), at: Back2BackStoreTests.now)
            // Three songs started: the first twice, the second once and still playing; one queued.
            func entry(_ song: Song, _ n: Int, _ status: QueueStatus) -> SessionEntry {
                let at = Back2BackStoreTests.now + Double(n * 100)
                return SessionEntry(song: song, pickedBy: .ai, pickedAt: at, status: status, startedAt: status == .upNext ? nil : at)
            }
            session.history = [entry(songs[0], 0, .played), entry(songs[0], 1, .played)]
            session.nowPlaying = entry(songs[1], 2, .playing)
            session.queue = [entry(songs[1], 3, .upNext)]
            try await store.create(session, title: "Friday", inviteToken: "token-1")
            #expect(try await library.albums(LibraryStore.AlbumQuery(order: .frequent, limit: 10)).total == 0)

            try await db.database.transaction { try await SessionPlays.backfill($0) }
            let played = try await library.albums(LibraryStore.AlbumQuery(order: .frequent, limit: 10)).albums
            #expect(played.map(\.title) == ["Album 0", "Album 1"])
            #expect(played.map(\.playCount) == [2, 1])
            #expect(played.last?.lastPlayedAt == Back2BackStoreTests.now + 200)
            // A state that cannot be read counts nothing, and stops no migration.
            #expect(SessionPlays.plays(inState: "{").isEmpty)
        }
    }
}
