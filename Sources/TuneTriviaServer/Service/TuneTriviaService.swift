import Foundation
import JukeCore
import JukePlatform
import Library
import LiveUpdates
import Logging
import Providers
import Storage
import Synchronization
import TuneTrivia

/// TuneTrivia on the server: the games' rules (the TuneTrivia engine) over their storage,
/// with what only a server knows: the library (tracks become rounds, facts become trivia),
/// the clock, randomness for invite codes, and the callers' identities.
///
/// Each command runs through `TuneTriviaStore.update`, under the game's lock, against a
/// cached copy that is reloaded when another server has changed the game; so a command is
/// committed before it is answered, and servers sharing a database agree.
actor TuneTriviaService {
    let store: TuneTriviaStore
    let library: LibraryStore
    /// Every library track, shared with the other apps: what rounds and questions are picked from.
    let snapshot: LibrarySnapshot
    let clock: WallClock
    private let database: any JukeDatabase
    let ai: AITriviaWriter?
    private let users: UserStore
    private let knownTokens: KnownTokens
    let logger: Logger
    let hub: TriviaHub
    private var cache: [SessionID: (game: Game, version: Int)] = [:]
    /// Commands waiting for the next transaction of their game, and the games being drained.
    private var queues: [SessionID: [Queued]] = [:]
    private var draining: Set<SessionID> = []
    var random = SystemRandomNumberGenerator()
    let codeGuard = AttemptLimiter(limit: 10, window: 300)
    /// Games whose missing trivia is being written in the background, and those that asked
    /// again meanwhile (`TriviaForEveryRound`).
    var writingTrivia: Set<SessionID> = []
    var triviaAgain: Set<SessionID> = []
    /// The other servers sharing the database, told of every change (`RelayMessage`: the
    /// detail is a `PushTargets` payload, or "D" for a deleted game).
    nonisolated let relay: Relay
    /// Where trivia is written in the background (the AI's: seconds a question).
    let background: BackgroundWork

    init(
        database: any JukeDatabase, library: LibraryStore, snapshot: LibrarySnapshot, knownTokens: KnownTokens = KnownTokens(), hub: TriviaHub,
        clock: WallClock, background: BackgroundWork,
        openAI: OpenAISettings?, triviaModel: String = TuneTriviaSettings().triviaModel, http: HTTPClient, logger: Logger
    ) {
        self.background = background
        self.users = UserStore(database: database)
        self.knownTokens = knownTokens
        self.ai = openAI.map { AITriviaWriter(settings: $0, model: triviaModel, http: http) }
        self.logger = logger
        self.store = TuneTriviaStore(database: database)
        self.database = database
        self.library = library
        self.snapshot = snapshot
        self.hub = hub
        self.clock = clock
        self.relay = Relay(channel: Self.relayChannel, database: database, logger: logger)
    }

    /// The NOTIFY channel TuneTrivia's changes travel on between servers.
    static let relayChannel = "juke_tunetrivia"

    /// After a commit: push it to this server's watchers, and to the other servers'.
    private func announce(_ id: SessionID, game: Game, version: Int, targets: PushTargets, since: ContinuousClock.Instant) async {
        await hub.changed(id, game: game, version: version, targets: targets, since: since)
        await tellOtherServers(id, targets)
    }

    /// A deleted game, for the other servers (read back by `remoteChange`).
    private func tellOtherServers(deleted id: SessionID) async {
        await relay.send(id.description, String(RelayMessage.deleted))
    }

    /// Who must see a change, for the other servers: a long list of players goes in pieces.
    private func tellOtherServers(_ id: SessionID, _ targets: PushTargets) async {
        for payload in targets.payloads(after: relay.prefix(id.description)) {
            await relay.send(payload: payload)
        }
    }

    /// Another server's NOTIFY: the game is loaded once and pushed to this server's watchers.
    func remoteChange(_ message: RelayMessage) async {
        guard let id = SessionID(message.subject) else { return }
        let since = ContinuousClock.now
        if message.detail == RelayMessage.deleted { return await hub.deleted(id) }
        guard let targets = PushTargets(payload: message.detail) else { return }
        do {
            let current = try await current(id)
            await hub.changed(id, game: current.game, version: current.version, targets: targets, since: since)
        } catch {
            await hub.deleted(id)
        }
    }

    /// After the relay's listener lost its connection and listens again: what the other
    /// servers changed meanwhile was not heard, so every game watched here is read again and
    /// pushed to all its watchers (those already up to date get nothing new).
    func resync() async {
        for id in await hub.watched() {
            do {
                guard try await store.version(id) != nil else {
                    await hub.deleted(id)
                    continue
                }
                let current = try await current(id)
                await hub.changed(id, game: current.game, version: current.version, targets: PushTargets(everyone: true), since: .now)
            } catch {
                logger.error("game not resynced", metadata: ["session": "\(id)", "error": "\(error)"])
            }
        }
    }

    // MARK: - Games

    func create(_ settings: Settings, host: User) async throws -> Game {
        try settings.validate()
        let now = clock.now()
        // A fresh code; on the rare collision, another.
        for _ in 0..<20 {
            let game = Game(
                id: SessionID(), host: host.id, hostName: host.displayName, hostPlayer: PlayerID(),
                inviteCode: InviteCode.make(using: &random), settings: settings, at: now)
            do {
                try await store.create(game, now: now)
                cache[game.id] = (game, 1)
                return game
            } catch StorageError.conflict {
                continue
            }
        }
        throw RuleRefusal.conflict("No free invite code; try again.")
    }

    /// The current game, from the cache when it is still the stored version.
    func game(_ id: SessionID) async throws -> Game { try await current(id).game }

    /// The current game, for one of its members (404 for anyone else).
    func game(_ id: SessionID, for user: UserID) async throws -> Game { try await current(id, for: user).game }

    /// The current game and its version, for one of its members (404 for anyone else).
    func current(_ id: SessionID, for user: UserID) async throws -> (game: Game, version: Int) {
        let found = try await current(id)
        try found.game.requireMember(user)
        return found
    }

    /// The current game and its version.
    func current(_ id: SessionID) async throws -> (game: Game, version: Int) {
        guard let version = try await store.version(id) else { throw RuleRefusal.notFound("No such game.") }
        // A cache ahead of what this read saw holds a command committing right now (`run`
        // forgets it if that commit fails): it is the newer state.
        if let cached = cache[id], cached.version >= version { return cached }
        guard let loaded = try await store.load(id) else { throw RuleRefusal.notFound("No such game.") }
        cache[id] = loaded
        return loaded
    }

    private func cached(_ id: SessionID) -> (game: Game, version: Int)? { cache[id] }

    /// The user's seat, for an answer: from the cached game when it has one (seats stay put,
    /// and the rules check the seat again under the lock), saving a read per answer.
    func guessingSeat(in id: SessionID, of user: UserID) async throws -> Player {
        if let seat = try? cache[id]?.game.guessingSeat(of: user) { return seat }
        return try await game(id).guessingSeat(of: user)
    }

    /// Called under the game's lock, so in commit order: the newest always wins. (Keeping
    /// the higher version instead would keep a failed commit's game over the real one that
    /// took its version number.)
    private func remember(_ id: SessionID, _ game: Game, _ version: Int) { cache[id] = (game, version) }

    /// Applies a command by `user` and returns the game after it.
    ///
    /// Commands to one game queue here and are committed in batches: whatever arrived while
    /// the previous transaction ran goes into the next, each applied in arrival order, each
    /// answered with its own result once the batch is committed. A game's commands wait on
    /// its lock anyway; a thousand answers a second become a few hundred transactions
    /// instead of a thousand, each a few round trips to the database.
    ///
    /// `checkingToken`: the hash of a token the caller's request was let through on without
    /// a lookup (`KnownTokens`); the batch checks it before applying the command.
    @discardableResult
    func run(_ id: SessionID, by user: UserID, _ command: Command, checkingToken token: String? = nil) async throws -> (
        game: Game, events: [GameEvent]
    ) {
        try await withCheckedThrowingContinuation { continuation in
            queues[id, default: []].append(Queued(user: user, command: command, token: token, since: .now, reply: continuation))
            if draining.insert(id).inserted { Task { await self.drain(id) } }
        }
    }

    private struct Queued {
        let user: UserID
        let command: Command
        let token: String?
        let since: ContinuousClock.Instant
        let reply: CheckedContinuation<(game: Game, events: [GameEvent]), any Error>
    }

    /// Each command's outcome within a batch, filled in by the transaction's closure.
    private final class Outcomes: Sendable {
        let results = Mutex<[Result<[GameEvent], GameError>]>([])
    }

    private static let batchLimit = 256

    private func drain(_ id: SessionID) async {
        while let batch = queues[id].flatMap({ $0.isEmpty ? nil : Array($0.prefix(Self.batchLimit)) }) {
            queues[id]?.removeFirst(batch.count)
            await commit(batch, to: id)
        }
        queues[id] = nil
        draining.remove(id)
    }

    private func commit(_ batch: [Queued], to id: SessionID) async {
        var batch = batch
        var tokensChecked = false
        if database.kind == .postgres, let base = cache[id] {
            switch await commitApplied(batch, to: id, base: base, now: clock.now()) {
            case .done: return
            case .notApplied(let checked): tokensChecked = checked
            }
        }
        let unchecked = Set(batch.compactMap(\.token))
        if !unchecked.isEmpty, !tokensChecked {
            do {
                let valid = try await users.validTokens(unchecked, now: clock.now())
                for hash in unchecked.subtracting(valid) { knownTokens.forget(hash) }
                batch.removeAll { queued in
                    guard let token = queued.token, !valid.contains(token) else { return false }
                    queued.reply.resume(throwing: RuleRefusal.unauthenticated("Sign in first: send a valid bearer token."))
                    return true
                }
            } catch {
                for queued in batch { queued.reply.resume(throwing: error) }
                return
            }
            if batch.isEmpty { return }
        }
        let now = clock.now()
        let commands = batch.map { ($0.user, $0.command) }
        let outcomes = Outcomes()
        do {
            let result = try await store.update(
                id, now: now, cached: { await self.cached(id) }, remember: { game, version in await self.remember(id, game, version) }
            ) { game in
                let (all, results) = Self.apply(commands, to: &game, at: now)
                outcomes.results.withLock { $0 = results }
                return all
            }
            let results = outcomes.results.withLock { $0 }
            if results.count == batch.count {
                for (queued, outcome) in zip(batch, results) {
                    switch outcome {
                    case .success(let events): queued.reply.resume(returning: (result.game, events))
                    case .failure(let error): queued.reply.resume(throwing: error)
                    }
                }
            } else {
                // Not one result per command (cannot happen): nobody may be left waiting.
                for queued in batch { queued.reply.resume(throwing: RuleRefusal.conflict("The game changed; try again.")) }
            }
            // Told to the screens once the callers have their answers: the commit is what
            // they wait for, not the hub (busy at times handing a frame to ten thousand).
            if !result.events.isEmpty {
                let since = batch.map(\.since).min() ?? .now
                await announce(id, game: result.game, version: result.version, targets: PushTargets(events: result.events), since: since)
                committed(id, game: result.game, events: result.events)
            }
        } catch StorageError.notFound {
            cache[id] = nil
            for queued in batch { queued.reply.resume(throwing: RuleRefusal.notFound("No such game.")) }
        } catch {
            // The commit may have failed after the cache took the new game: forget it.
            cache[id] = nil
            for queued in batch { queued.reply.resume(throwing: error) }
        }
    }

    /// Applies each command in turn. The rules change nothing when they refuse a command, so
    /// one refused command leaves the others' changes intact.
    private static func apply(_ commands: [(UserID, Command)], to game: inout Game, at now: Date) -> (
        events: [GameEvent], results: [Result<[GameEvent], GameError>]
    ) {
        var all: [GameEvent] = []
        var results: [Result<[GameEvent], GameError>] = []
        for (user, command) in commands {
            do throws(GameError) {
                let events = try game.apply(command, by: user, at: now)
                results.append(.success(events))
                all += events
            } catch {
                results.append(.failure(error))
            }
        }
        return (all, results)
    }

    /// `apply` away from the actor: judging a batch of answers takes milliseconds, and the
    /// actor answers every request's questions meanwhile.
    @concurrent
    private nonisolated static func applied(_ commands: [(UserID, Command)], to game: Game, at now: Date) async -> (
        game: Game, events: [GameEvent], results: [Result<[GameEvent], GameError>]
    ) {
        var game = game
        let (events, results) = apply(commands, to: &game, at: now)
        return (game, events, results)
    }

    private enum QuickCommit {
        /// Stored, or failed; everyone in the batch has their answer.
        case done
        /// The locked way must take the batch (nobody has been answered); `tokensChecked`
        /// when the statement found every token of the batch valid.
        case notApplied(tokensChecked: Bool)
    }

    /// PostgreSQL's quick way: the batch applied to the cached game, then stored in one
    /// statement that checks the version and the batch's tokens, writes and tells the other
    /// servers (`TuneTriviaStore.commitApplied`). The locked way takes the batch when
    /// nothing changed (refusals are decided on the current game under its lock), players
    /// or results change, a token is refused (it is found and refused there), or another
    /// server changed the game first (the locked way reloads it).
    private func commitApplied(_ batch: [Queued], to id: SessionID, base: (game: Game, version: Int), now: Date) async -> QuickCommit {
        let applied = await Self.applied(batch.map { ($0.user, $0.command) }, to: base.game, at: now)
        guard !applied.events.isEmpty, TuneTriviaStore.canCommitApplied(applied.events), applied.results.count == batch.count else {
            return .notApplied(tokensChecked: false)
        }
        let targets = PushTargets(events: applied.events)
        let version = base.version + 1
        do {
            let outcome = try await store.commitApplied(
                id, before: base.game, after: applied.game, events: applied.events, version: base.version, tokens: Set(batch.compactMap(\.token)),
                now: now, notify: (relay.channel, targets.payloads(after: relay.prefix(id.description))))
            switch outcome {
            case .stored: break
            case .tokenRefused: return .notApplied(tokensChecked: false)
            case .changedElsewhere:
                cache[id] = nil
                return .notApplied(tokensChecked: true)
            }
        } catch {
            // Whether it was stored is unknown: the next reader reloads.
            cache[id] = nil
            for queued in batch { queued.reply.resume(throwing: error) }
            return .done
        }
        // Another reader may have cached an older version meanwhile; this one is newer.
        if (cache[id]?.version ?? 0) < version { cache[id] = (applied.game, version) }
        for (queued, outcome) in zip(batch, applied.results) {
            switch outcome {
            case .success(let events): queued.reply.resume(returning: (applied.game, events))
            case .failure(let error): queued.reply.resume(throwing: error)
            }
        }
        await hub.changed(id, game: applied.game, version: version, targets: targets, since: batch.map(\.since).min() ?? .now)
        committed(id, game: applied.game, events: applied.events)
        return .done
    }

    func delete(_ id: SessionID, by user: UserID) async throws {
        let game = try await game(id)
        try game.requireHost(user)
        try await store.delete(id)
        cache[id] = nil
        await hub.deleted(id)
        await tellOtherServers(deleted: id)
    }

    /// Seats the user in the game with this invite code (party mode). Wrong codes are
    /// limited per user, so codes cannot be found by trying them all.
    /// The game with this invite code (canonical), or nil.
    func sessionID(inviteCode: String) async throws -> SessionID? { try await store.sessionID(inviteCode: inviteCode) }

    func join(code typed: String, user: User, name: String?, address: String?) async throws -> Game {
        let subject = "\(user.id)|\(address ?? "")"
        // The attempt is counted before the code is looked up (the lookup awaits, and codes
        // sent at once would otherwise all be judged), and given back when the code was right.
        let attempt: AttemptLimiter.Attempt
        switch await codeGuard.take(subject, now: clock.now()) {
        case .refused(let wait): throw RuleRefusal.tooManyAttempts("Too many wrong codes; try again later.", retryAfter: wait)
        case .taken(let taken): attempt = taken
        }
        var found: SessionID?
        do {
            if let code = InviteCode.canonical(typed) { found = try await store.sessionID(inviteCode: code) }
        } catch {
            await codeGuard.giveBack(attempt)
            throw error
        }
        guard let id = found else { throw RuleRefusal.notFound("No such game with that invite code.") }
        await codeGuard.giveBack(attempt)
        // Joining again (a reload, another phone) keeps the seat: nothing to write.
        let current = try await game(id)
        if current.player(forUser: user.id) != nil { return current }
        return try await run(id, by: user.id, .join(player: PlayerID(), name: name ?? user.displayName)).game
    }

    // MARK: - Rounds from the library

    func addRound(_ id: SessionID, by user: UserID, track trackID: TrackID, clipStart: Double?) async throws -> Round {
        guard let track = try await library.track(id: trackID) else { throw RuleRefusal.notFound("No such track.") }
        let round = RoundPicker.round(for: track, clipStart: clipStart)
        let game = try await run(id, by: user, .addRound(round)).game
        guard let added = game.rounds.first(where: { $0.id == round.id }) else { throw RuleRefusal.notFound("No such round.") }
        return added
    }

    /// Fills the game up to its number of songs with library tracks that fit its decade,
    /// genres and artists, in random order; with `others`, songs that do not fit top it up.
    func autoGenerate(_ id: SessionID, by user: UserID, others: Bool) async throws -> (game: Game, pick: RoundPicker.Pick) {
        let game = try await game(id)
        try game.requireHost(user)
        var latest = game
        let pick = RoundPicker.pick(for: game, from: try await snapshot.tracks(), others: others, using: &random)
        for track in pick.tracks {
            latest = try await run(id, by: user, .addRound(RoundPicker.round(for: track, clipStart: nil))).game
        }
        return (latest, pick)
    }

    /// Writes a trivia question for a round now (the host's "Write trivia"), replacing any.
    func generateTrivia(_ id: SessionID, by user: UserID, round roundID: RoundID) async throws -> Round {
        let game = try await game(id)
        try game.requireHost(user)
        guard let round = game.rounds.first(where: { $0.id == roundID }) else { throw RuleRefusal.notFound("No such round.") }
        guard let trivia = try await writeTrivia(for: round, of: id, askingAI: true) else {
            throw RuleRefusal.unprocessable("round_id", "The library knows too little about this song to ask a fair question.")
        }
        let updated = try await run(id, by: user, .setTrivia(roundID, trivia)).game
        guard let result = updated.rounds.first(where: { $0.id == roundID }) else { throw RuleRefusal.notFound("No such round.") }
        return result
    }

    /// A question about the round's song: worded by the AI when one is configured (and
    /// `askingAI`) and its reply passes the checks, otherwise by Juke from the library's facts,
    /// of a kind the game's other rounds ask least and its neighbours not (the game is read
    /// anew: the background writer sets one round's question after another). A database error
    /// is thrown: a question from an empty library would be a wrong one, not a fallback.
    func writeTrivia(for round: Round, of id: SessionID, askingAI: Bool) async throws -> Trivia? {
        if askingAI, let ai {
            do {
                return try await ai.question(title: round.answer.title, artist: round.answer.artist)
            } catch {
                logger.warning("AI trivia unusable; Juke writes its own", metadata: ["error": "\(error)"])
            }
        }
        let facts = try await snapshot.tracks().map(LibraryTrivia.Facts.init)
        let song =
            facts.first { $0.track == round.track }
            ?? LibraryTrivia.Facts(
                track: round.track, title: round.answer.title, artist: round.answer.artist, album: round.answer.album, year: round.answer.year,
                composer: nil)
        let rounds = try await game(id).rounds
        let spread = LibraryTrivia.Spread(questions: rounds.map(\.trivia), at: rounds.firstIndex { $0.id == round.id } ?? rounds.count)
        return LibraryTrivia.question(about: song, library: facts, spread: spread, using: &random)
    }

    // MARK: - Lists

    func sessions(for user: UserID, limit: Int, offset: Int) async throws -> (items: [TuneTriviaStore.Summary], total: Int) {
        try await store.sessions(for: user, limit: limit, offset: offset)
    }

    func leaderboard(limit: Int, offset: Int) async throws -> (entries: [TuneTriviaStore.LeaderboardEntry], total: Int) {
        try await store.leaderboard(limit: limit, offset: offset)
    }

    func rank(of user: UserID) async throws -> TuneTriviaStore.LeaderboardEntry? { try await store.leaderboardEntry(user) }
}
