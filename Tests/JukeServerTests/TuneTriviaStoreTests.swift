import Foundation
import JukeCore
import JukeTestSupport
import Synchronization
import Testing
import TuneTrivia

@testable import Storage
@testable import TuneTriviaServer

/// Games survive a restart exactly, two servers (two stores, each with its own cached copy)
/// never both accept what the rules allow once, and the leaderboard adds up.
@Suite(.timeLimit(.minutes(5))) struct TuneTriviaStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    struct Setup {
        let store: TuneTriviaStore
        let host: User
        let players: [User]
        let game: Game
    }

    static func setUp(_ db: TestDatabase, mode: Settings.Mode = .party) async throws -> Setup {
        let users = UserStore(database: db.database)
        let all = ["host", "ann", "bob", "cy"].map { testUser($0) }
        for u in all { try await users.create(u, passwordHash: "h") }
        var settings = Settings(title: "Quiz night")
        settings.mode = mode
        settings.numSongs = 5
        var game = Game(
            id: SessionID(), host: all[0].id, hostName: "Host", hostPlayer: PlayerID(), inviteCode: "QZ0001", settings: settings, at: now)
        for (title, artist) in [("Bohemian Rhapsody", "Queen"), ("Halo", "Beyoncé")] {
            _ = try game.apply(
                .addRound(Round(id: RoundID(), track: TrackID(), number: 0, answer: Answer(title: title, artist: artist, album: "A"), clipStart: 10)),
                by: all[0].id, at: now)
        }
        let store = TuneTriviaStore(database: db.database)
        try await store.create(game, now: now)
        return Setup(store: store, host: all[0], players: Array(all.dropFirst()), game: game)
    }

    @Test(arguments: TestBackend.available)
    func aGameIsStoredAndRestoredExactly(backend: TestBackend) async throws {
        try await TestDatabase.with(backend, schemas: [.tuneTrivia]) { db in
            let s = try await Self.setUp(db)
            var cached = try #require(try await s.store.load(s.game.id))
            #expect(cached.game == s.game)
            // Three players join, the game starts, two guess, the host reveals and moves on.
            var seats: [UserID: PlayerID] = [:]
            for (i, u) in s.players.enumerated() {
                let seat = PlayerID()
                seats[u.id] = seat
                let name = ["Ann", "Bob", "Cy"][i]
                let r = try await s.store.update(s.game.id, cached: cached, now: Self.now) {
                    try $0.apply(.join(player: seat, name: name), by: u.id, at: Self.now)
                }
                cached = (r.game, r.version)
            }
            let steps: [(UserID, Command)] = [
                (s.host.id, .start),
                (s.players[0].id, .guess(player: seats[s.players[0].id] ?? PlayerID(), artist: "queen", song: "bohemian rhapsody")),
                (s.players[1].id, .guess(player: seats[s.players[1].id] ?? PlayerID(), artist: "", song: "bohemian")),
                (s.host.id, .reveal),
                (s.host.id, .acceptNearMiss(player: seats[s.players[1].id] ?? PlayerID(), field: .song)),
                (s.host.id, .nextRound),
            ]
            for (user, command) in steps {
                let r = try await s.store.update(s.game.id, cached: cached, now: Self.now) { try $0.apply(command, by: user, at: Self.now) }
                cached = (r.game, r.version)
            }
            // What a restarted server reads is the game it had, scores included.
            let restored = try #require(try await s.store.load(s.game.id))
            #expect(restored.version == cached.version)
            #expect(restored.game == cached.game)
            #expect(restored.game.players[seats[s.players[0].id] ?? PlayerID()]?.score.total == 2)
            #expect(restored.game.players[seats[s.players[1].id] ?? PlayerID()]?.score.total == 1)
            #expect(restored.game.currentRound == 2 && restored.game.round?.phase == .playing)
        }
    }

    @Test(arguments: TestBackend.available)
    func twoServersNeverAcceptASecondGuess(backend: TestBackend) async throws {
        try await TestDatabase.with(backend, schemas: [.tuneTrivia]) { db in
            let s = try await Self.setUp(db)
            let ann = s.players[0]
            let seat = PlayerID()
            var a = try #require(try await s.store.load(s.game.id))
            let joined = try await s.store.update(s.game.id, cached: a, now: Self.now) {
                try $0.apply(.join(player: seat, name: "Ann"), by: ann.id, at: Self.now)
            }
            a = (joined.game, joined.version)
            let started = try await s.store.update(s.game.id, cached: a, now: Self.now) { try $0.apply(.start, by: s.host.id, at: Self.now) }
            a = (started.game, started.version)
            let b = a  // server B's copy, taken now
            _ = try await s.store.update(s.game.id, cached: a, now: Self.now) {
                try $0.apply(.guess(player: seat, artist: "queen", song: ""), by: ann.id, at: Self.now)
            }
            // Server B's copy is stale; the store reloads it under the lock and the rules refuse.
            await #expect(throws: GameError.conflict("You have already guessed this round.")) {
                _ = try await s.store.update(s.game.id, cached: b, now: Self.now) {
                    try $0.apply(.guess(player: seat, artist: "queen", song: "bohemian rhapsody"), by: ann.id, at: Self.now)
                }
            }
            // Concurrent guesses from many players all land, once each.
            let others = s.players.dropFirst()
            var seats: [(UserID, PlayerID)] = []
            for (i, u) in others.enumerated() {
                let p = PlayerID()
                seats.append((u.id, p))
                _ = try await s.store.update(s.game.id, cached: nil, now: Self.now) { try $0.apply(.join(player: p, name: "P\(i)"), by: u.id, at: Self.now) }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (user, p) in seats {
                    for _ in 0..<3 {
                        group.addTask {
                            _ = try? await s.store.update(s.game.id, cached: nil, now: Self.now) {
                                try $0.apply(.guess(player: p, artist: "queen", song: ""), by: user, at: Self.now)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let final = try #require(try await s.store.load(s.game.id))
            #expect(final.game.allGuesses.count == 3)
        }
    }

    /// PostgreSQL's single-statement commit of a change applied beforehand: with a stale
    /// version or a signed-out token it writes nothing; with the current one it
    /// stores answers, a reveal and a host's ruling exactly as the locked way would, and its
    /// NOTIFYs go out with it, cut to fit.
    @Test(.enabled(if: TestBackend.postgresAvailable, "needs PostgreSQL: JUKE_TEST_POSTGRES_URL"))
    func aChangeAppliedBeforehandIsStoredInOneStatementOnlyOverItsOwnVersion() async throws {
        try await TestDatabase.with(.postgres, schemas: [.tuneTrivia]) { db in
            let s = try await Self.setUp(db)
            var cached = try #require(try await s.store.load(s.game.id))
            var seats: [UserID: PlayerID] = [:]
            for (i, u) in s.players.enumerated() {
                let seat = PlayerID()
                seats[u.id] = seat
                let r = try await s.store.update(s.game.id, cached: cached, now: Self.now) {
                    try $0.apply(.join(player: seat, name: "P\(i)"), by: u.id, at: Self.now)
                }
                cached = (r.game, r.version)
            }
            let users = UserStore(database: db.database)
            let signedIn = "in-\(UUID())", signedOut = "out-\(UUID())"
            for hash in [signedIn, signedOut] {
                try await users.storeToken(hash: hash, user: s.players[0].id, createdAt: Self.now, expiresAt: Self.now + 3600)
            }
            try await users.revokeToken(hash: signedOut)
            let heard = Mutex<[String]>([])
            let listening = try await confirmedListen(db.database, channel: "juke_test_commit") { payload in heard.withLock { $0.append(payload) } }
            defer { listening.cancel() }

            let steps: [[(UserID, Command)]] = [
                [(s.host.id, .start)],
                [
                    (s.players[0].id, .guess(player: seats[s.players[0].id] ?? PlayerID(), artist: "queen", song: "bohemian rhapsody")),
                    (s.players[1].id, .guess(player: seats[s.players[1].id] ?? PlayerID(), artist: "", song: "bohemian")),
                ],
                [(s.host.id, .reveal)],
                [(s.host.id, .acceptNearMiss(player: seats[s.players[1].id] ?? PlayerID(), field: .song))],
            ]
            for (n, batch) in steps.enumerated() {
                var after = cached.game
                var events: [GameEvent] = []
                for (user, command) in batch { events += try after.apply(command, by: user, at: Self.now) }
                #expect(TuneTriviaStore.canCommitApplied(events))
                let payloads = ["step \(n)", String(repeating: "x", count: 7_000)]
                // Over a version that is no longer the stored one: nothing is written or told.
                let stale = try await s.store.commitApplied(
                    s.game.id, before: cached.game, after: after, events: events, version: cached.version - 1, now: Self.now,
                    notify: ("juke_test_commit", payloads))
                #expect(stale == .changedElsewhere)
                #expect(try await s.store.load(s.game.id)?.version == cached.version)
                // A signed-out token in the batch: nothing is written or told either.
                let refused = try await s.store.commitApplied(
                    s.game.id, before: cached.game, after: after, events: events, version: cached.version, tokens: [signedIn, signedOut],
                    now: Self.now, notify: ("juke_test_commit", payloads))
                #expect(refused == .tokenRefused)
                #expect(try await s.store.load(s.game.id)?.version == cached.version)
                let stored = try await s.store.commitApplied(
                    s.game.id, before: cached.game, after: after, events: events, version: cached.version, tokens: [signedIn], now: Self.now,
                    notify: ("juke_test_commit", payloads))
                #expect(stored == .stored)
                cached = (after, cached.version + 1)
            }
            let restored = try #require(try await s.store.load(s.game.id))
            #expect(restored.version == cached.version)
            #expect(restored.game == cached.game)
            #expect(restored.game.players[seats[s.players[1].id] ?? PlayerID()]?.score.total == 1)
            #expect(await eventually { heard.withLock { $0.count } >= 8 })
            #expect(heard.withLock { $0.filter { $0.hasPrefix("step") } } == ["step 0", "step 1", "step 2", "step 3"])
            #expect(heard.withLock { $0.count } == 8)
            // Joining, leaving and the end touch players and the leaderboard: not this way.
            #expect(!TuneTriviaStore.canCommitApplied([.guessAccepted(PlayerID()), .playerJoined(PlayerID())]))
        }
    }

    /// One batch (one transaction) with more answers than one INSERT statement holds, and a
    /// host scoring the same player twice: every guess is stored once, with its last value.
    @Test(arguments: TestBackend.available)
    func aBatchOfCommandsStoresEachGuessOnce(backend: TestBackend) async throws {
        try await TestDatabase.with(backend, schemas: [.tuneTrivia]) { db in
            let s = try await Self.setUp(db, mode: .host)
            let seats = (0..<450).map { _ in PlayerID() }
            var cached = try #require(try await s.store.load(s.game.id))
            let host = s.host.id
            let r = try await s.store.update(s.game.id, cached: cached, now: Self.now) { game in
                var events: [GameEvent] = []
                for (i, seat) in seats.enumerated() { events += try game.apply(.addManualPlayer(player: seat, name: "P\(i)"), by: host, at: Self.now) }
                events += try game.apply(.start, by: host, at: Self.now)
                for seat in seats { events += try game.apply(.score(player: seat, artist: true, song: false, trivia: false), by: host, at: Self.now) }
                // The first player, scored again in the same batch: an update of the same row.
                events += try game.apply(.score(player: seats[0], artist: true, song: true, trivia: false), by: host, at: Self.now)
                return events
            }
            cached = (r.game, r.version)
            let restored = try #require(try await s.store.load(s.game.id))
            #expect(restored.game == cached.game)
            #expect(restored.game.allGuesses.count == 450)
            #expect(restored.game.players[seats[0]]?.score.total == 2)
            #expect(restored.game.players[seats[449]]?.score.total == 1)
        }
    }

    @Test(arguments: TestBackend.available)
    func theLeaderboardCountsAccountsOnlyAndSharesRanks(backend: TestBackend) async throws {
        try await TestDatabase.with(backend, schemas: [.tuneTrivia]) { db in
            let s = try await Self.setUp(db)
            var seats: [PlayerID] = []
            for (i, u) in s.players.enumerated() {
                let p = PlayerID()
                seats.append(p)
                _ = try await s.store.update(s.game.id, cached: nil, now: Self.now) { try $0.apply(.join(player: p, name: "P\(i)"), by: u.id, at: Self.now) }
            }
            let script: [(UserID, Command)] = [
                (s.host.id, .start),
                (s.players[0].id, .guess(player: seats[0], artist: "queen", song: "bohemian rhapsody")),
                (s.players[1].id, .guess(player: seats[1], artist: "queen", song: "bohemian rhapsody")),
                (s.players[2].id, .guess(player: seats[2], artist: "queen", song: "")),
                (s.host.id, .reveal), (s.host.id, .end),
            ]
            for (user, command) in script {
                _ = try await s.store.update(s.game.id, cached: nil, now: Self.now) { try $0.apply(command, by: user, at: Self.now) }
            }
            let board = try await s.store.leaderboard(limit: 10, offset: 0)
            #expect(board.total == 3, "the host is not ranked")
            #expect(board.entries.map(\.rank) == [1, 1, 3])
            #expect(board.entries.map(\.totalPoints) == [2, 2, 1])
            let me = try #require(try await s.store.leaderboardEntry(s.players[2].id))
            #expect(me.rank == 3 && me.gamesPlayed == 1 && me.artistCorrect == 1 && me.highestGameScore == 1)
            #expect(try await s.store.leaderboardEntry(s.host.id) == nil)
            let list = try await s.store.sessions(for: s.players[0].id, limit: 10, offset: 0)
            #expect(list.total == 1 && list.items.first?.playerCount == 3 && list.items.first?.status == .ended)
            #expect(try await s.store.sessions(for: UserID(), limit: 10, offset: 0).total == 0)
        }
    }

    @Test(arguments: TestBackend.available)
    func manualPlayersNeverReachTheLeaderboard(backend: TestBackend) async throws {
        try await TestDatabase.with(backend, schemas: [.tuneTrivia]) { db in
            let s = try await Self.setUp(db, mode: .host)
            let dad = PlayerID()
            for command: Command in [.addManualPlayer(player: dad, name: "Dad"), .start, .score(player: dad, artist: true, song: true, trivia: false), .end] {
                _ = try await s.store.update(s.game.id, cached: nil, now: Self.now) { try $0.apply(command, by: s.host.id, at: Self.now) }
            }
            let restored = try #require(try await s.store.load(s.game.id))
            #expect(restored.game.players[dad]?.score.total == 2)
            #expect(try await s.store.leaderboard(limit: 10, offset: 0).total == 0)
            await #expect(throws: StorageError.conflict("invite code QZ0001")) { try await s.store.create(s.game, now: Self.now) }
            try await s.store.delete(s.game.id)
            #expect(try await s.store.load(s.game.id) == nil)
        }
    }
}
