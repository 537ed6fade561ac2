import Back2Back
import Foundation
import JukeCore
import JukePlatform
import LiveUpdates
import Logging
import Matching
import Providers
import Storage

/// Back2Back on the server: the session rules (the Back2Back engine) over their storage, and
/// what only a server knows: the library, the clock, randomness, who is asking, and the DJ
/// that answers the engine's requests for picks and direction changes.
///
/// Every event runs through `Back2BackStore.update` under the session's lock, so it is
/// committed before it is answered; the actions it returns are then carried out here: picks
/// and directions are asked of the DJ in the background, and their answers come back as
/// events with the task they answer (a superseded one is dropped by the rules).
actor Back2BackService {
    let store: Back2BackStore
    private let database: any JukeDatabase
    private let library: LibraryStore
    /// Every library track, shared with the other apps.
    private let snapshot: LibrarySnapshot
    private let users: UserStore
    let clock: WallClock
    /// The clock the turn and presence timers sleep on: the system's in the server, a manual
    /// one in tests, so that a test moves time on instead of waiting for it.
    let timers: any LiveClock
    let logger: Logger
    private let dj: any SessionDJ
    /// The outside catalog (Apple Music, iTunes Search) people may search, if configured.
    let catalog: (any MusicCatalog)?
    /// Who watches which session, told of each new version (LiveUpdates).
    let live: VersionBoard<DJSessionID>
    private var random = SystemRandomNumberGenerator()
    /// The library as songs, rebuilt when the library's generation moves.
    private var songs: (generation: Int, list: [Song])?
    /// The library as the matching engine's index, for catalog results; rebuilt likewise.
    private var libraryIndex: (generation: Int, index: TrackCatalog<TrackID>, byID: [TrackID: Song])?
    /// Background work (picks, directions), so tests and shutdown can wait for it.
    private var work: [UUID: Task<Void, Never>] = [:]
    /// Set at shutdown: no new background work starts, so the database can close after the rest.
    var stopping = false
    /// Each session's turn timer (`TurnTimers.swift`).
    var turnTimers: [DJSessionID: Task<Void, Never>] = [:]
    /// Open live connections on this server, by session and member, and the grace timers of
    /// members whose last one closed (`TurnTimers.swift`).
    var connections: [DJSessionID: [UserID: Int]] = [:]
    var awayTimers: [String: Task<Void, Never>] = [:]
    /// Open live connections by session and page, and the short waits before a playing page
    /// whose last one closed counts as gone (`PlayerPresence.swift`).
    var pages: [DJSessionID: [PlayingDevice: Int]] = [:]
    /// Since when each open page has been here, and what it runs on (`PlayerPresence.swift`).
    var pageInfo: [DJSessionID: [PlayingDevice: PresentPage]] = [:]
    var pageTimers: [String: Task<Void, Never>] = [:]
    /// The other servers sharing the database, told of every change (`RelayMessage`: the
    /// detail is the session's new version, or "D" when it was deleted).
    nonisolated let relay: Relay

    /// The NOTIFY channel Back2Back's changes travel on between servers.
    static let relayChannel = "juke_back2back"

    /// Where a style guide is written on after its page has gone (the platform's, stopped at shutdown).
    let background: BackgroundWork

    init(
        database: any JukeDatabase, library: LibraryStore, snapshot: LibrarySnapshot, users: UserStore, clock: WallClock, dj: any SessionDJ,
        catalog: (any MusicCatalog)? = nil, heartbeat: Duration = .seconds(15), timers: any LiveClock = SystemLiveClock(),
        background: BackgroundWork, logger: Logger
    ) {
        self.background = background
        self.live = VersionBoard(heartbeat: heartbeat)
        self.store = Back2BackStore(database: database)
        self.relay = Relay(channel: Self.relayChannel, database: database)
        self.catalog = catalog
        self.database = database
        self.library = library
        self.snapshot = snapshot
        self.users = users
        self.clock = clock
        self.timers = timers
        self.dj = dj
        self.logger = logger
    }

    func aiConfigured() async -> Bool { await dj.usesAI() }

    // MARK: - Sessions

    struct Loaded: Sendable {
        let session: DJSession
        let title: String
        let inviteToken: String
        let version: Int
    }

    func create(title: String?, host: User, persona requested: PersonaID?, turnSeconds: Int? = nil) async throws -> Loaded {
        let now = clock.now()
        let persona = try await choosePersona(requested, for: host.id)
        let name = try DJSession.title(title, host: host.displayName, persona: persona.name)
        let session = DJSession(id: DJSessionID(), host: host.id, persona: persona.id, turnSeconds: try DJSession.turnSeconds(asked: turnSeconds), at: now)
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &random) }
        let token = Hex.string(bytes)
        try await store.create(session, title: name, inviteToken: token)
        return Loaded(session: session, title: name, inviteToken: token, version: 1)
    }

    /// The persona a new session takes (`PersonaChoice`); restoring the built-ins when the
    /// user has deleted every one, so that a session can start.
    private func choosePersona(_ requested: PersonaID?, for user: UserID) async throws -> Persona {
        let mine = try await store.personas(of: user, now: clock.now())
        let last = requested == nil ? try await store.settings(of: user, now: clock.now()).persona : nil
        switch try PersonaChoice.choose(requested: requested, mine: mine, last: last) {
        case .persona(let persona):
            return persona
        case .restoreBuiltIns:
            var persona = Persona.builtIns(at: clock.now())[0]
            persona.id = PersonaID()
            persona.owner = user
            try await store.save(persona)
            return persona
        }
    }

    /// The session, for a member.
    func session(_ id: DJSessionID, for user: UserID) async throws -> Loaded {
        guard let found = try await store.load(id) else { throw RuleRefusal.notFound("No such session.") }
        try found.session.requireViewer(user)
        return Loaded(session: found.session, title: found.title, inviteToken: found.inviteToken, version: found.version)
    }

    func sessions(for user: UserID, limit: Int, offset: Int) async throws -> (items: [Back2BackStore.Summary], total: Int) {
        try await store.sessions(for: user, limit: limit, offset: offset)
    }

    func join(token: String, user: UserID) async throws -> Loaded {
        guard let id = try await store.sessionID(inviteToken: token.trimmingCharacters(in: .whitespaces)) else {
            throw RuleRefusal.notFound("No such session for that invite link.")
        }
        return try await apply(id, .join(user))
    }

    func delete(_ id: DJSessionID, by user: UserID) async throws {
        let found = try await session(id, for: user)
        try found.session.requireHost(user)
        try await store.delete(id)
        await live.deleted(id)
        await relay.send(id.description, String(RelayMessage.deleted))
    }

    /// Applies a person's event (their membership and turn are the rules' to check).
    @discardableResult
    func run(_ id: DJSessionID, _ event: SessionEvent) async throws -> Loaded {
        try await apply(id, event)
    }

    /// The library track a person picked, as a song.
    func song(_ track: TrackID) async throws -> Song {
        guard let t = try await library.track(id: track) else { throw RuleRefusal.notFound("No such track in the library.") }
        return Self.song(t)
    }

    // MARK: - Events and actions

    /// Commits `event` and carries out the actions it returns; the session as it now is.
    @discardableResult
    private func apply(_ id: DJSessionID, _ event: SessionEvent) async throws -> Loaded {
        let now = clock.now()
        // The rules draw new IDs from a generator seeded here (the closure may run again).
        let seed = random.next()
        let result: Back2BackStore.Updated
        do {
            result = try await store.update(id) { session in
                var generator = SplitMix64(seed: seed)
                return try session.apply(event, at: now, using: &generator)
            }
        } catch StorageError.notFound {
            throw RuleRefusal.notFound("No such session.")
        }
        // Only a stored change is news (a repeated end report or a mid-song progress is not).
        if result.changed {
            await live.changed(id, version: result.version)
            await relay.send(id.description, String(result.version))
        }
        timeTurn(result.session)
        for action in result.actions { perform(action, in: result.session) }
        return Loaded(session: result.session, title: result.title, inviteToken: result.inviteToken, version: result.version)
    }

    /// Another server's change: its watchers here are told. Servers sharing a PostgreSQL
    /// database push each change to their own watchers too.
    func remoteChange(_ message: RelayMessage) async {
        guard let id = DJSessionID(message.subject) else { return }
        if message.detail == RelayMessage.deleted { return await live.deleted(id) }
        if let version = Int(message.detail) {
            await live.changed(id, version: version)
            await correctPresence(id)
        }
    }

    /// An answer from the DJ (a system event: never refused for turns or membership).
    func answer(_ id: DJSessionID, _ event: SessionEvent) async {
        do {
            try await apply(id, event)
        } catch {
            logger.warning("Back2Back answer not applied", metadata: ["session": "\(id)", "error": "\(error)"])
        }
    }

    private func perform(_ action: SessionAction, in session: DJSession) {
        switch action {
        case .requestPick(let request):
            background { await self.pick(for: session.id, request) }
        case .requestDirection(let task):
            background { await self.direction(for: session.id, task) }
        case .hurry(let task):
            background { await self.dj.hurry(task) }
        case .remember(let song, let persona):
            let owner = session.host
            let now = clock.now()
            background {
                do {
                    try await self.store.remember(song, persona: persona, owner: owner, at: now)
                } catch {
                    self.logger.error("Back2Back song memory not saved", metadata: ["error": "\(error)"])
                }
            }
        case .play(let entry):
            // A song that starts is a play of its track (the library's most and recently
            // played albums); the players read the song from the session's state.
            let play = CatalogPlays.Play(track: entry.song.track, at: entry.startedAt ?? clock.now())
            background {
                do {
                    try await self.library.recordPlays([play])
                } catch {
                    self.logger.error("Back2Back play not counted", metadata: ["error": "\(error)"])
                }
            }
        case .preload:
            break  // the players read it from the session's state
        }
    }

    private func background(_ body: @escaping @Sendable () async -> Void) {
        guard !stopping else { return }
        let key = UUID()
        work[key] = Task {
            await body()
            self.finished(key)
        }
    }

    private func finished(_ key: UUID) { work[key] = nil }

    /// Background work under way (tests).
    var workCount: Int { work.count }

    /// Waits until no background work is left (tests).
    func settle() async {
        while let next = work.values.first { await next.value }
    }

    /// How long shutdown lets the work under way finish before cancelling it.
    static let stopGrace: Duration = .seconds(2)

    /// Shutdown: starts no more work, lets what is under way finish for a moment (it writes to
    /// the database), then cancels the rest: an AI request can take half a minute, and a
    /// server told to stop must stop within seconds. A cancelled pick is answered as failed.
    func stop() async {
        stopping = true
        for timer in turnTimers.values { timer.cancel() }
        turnTimers = [:]
        for timer in awayTimers.values { timer.cancel() }
        awayTimers = [:]
        for timer in pageTimers.values { timer.cancel() }
        pageTimers = [:]
        let pending = Array(work.values)
        let graceOver = Task {
            try? await Task.sleep(for: Self.stopGrace)
            guard !Task.isCancelled else { return }
            for task in pending { task.cancel() }
        }
        await settle()
        graceOver.cancel()
    }

    // MARK: - Asking the DJ

    private func pick(for id: DJSessionID, _ request: AIRequest) async {
        do {
            guard let found = try await store.load(id), found.session.aiTask?.task == request.task else { return }
            let session = found.session
            let now = clock.now()
            let persona = try await store.persona(session.persona) ?? Persona.builtIns(at: now)[0]
            let memory = try await store.memory(persona: session.persona, owner: session.host, at: now)
            let settings = try await store.settings(of: session.host, now: now)
            let context = PickContext(
                request: request, persona: persona, library: try await librarySongs(),
                recent: session.entries.map(\.song),
                exclusions: SongExclusions(memory.recent(persona: session.persona, at: now).map(\.key), songs: session.entries.map(\.song)),
                memory: memory.recent(persona: session.persona, at: now), settings: settings)
            switch await dj.pick(context) {
            case .success(let pick):
                await answer(id, .aiPicked(request.task, pick.song, rationale: pick.rationale, followedDirection: pick.followedDirection))
            case .failure(let failure): await answer(id, .aiFailed(request.task, reason: failure.message))
            }
        } catch {
            logger.error("Back2Back pick failed", metadata: ["session": "\(id)", "error": "\(error)"])
            await answer(id, .aiFailed(request.task, reason: "The DJ could not pick: the server had a problem."))
        }
    }

    private func direction(for id: DJSessionID, _ task: AITaskID) async {
        do {
            guard let found = try await store.load(id), found.session.directionTask == task else { return }
            let persona = try await store.persona(found.session.persona) ?? Persona.builtIns(at: clock.now())[0]
            let settings = try await store.settings(of: found.session.host, now: clock.now())
            let recent = found.session.entries.map(\.song)
            if let direction = await dj.direction(
                after: recent, avoiding: found.session.currentDirections, persona: persona, library: try await librarySongs(), settings: settings)
            {
                await answer(id, .directionSuggested(task, direction))
            } else {
                await answer(id, .directionFailed(task))
            }
        } catch {
            await answer(id, .directionFailed(task))
        }
    }

    /// The library as the matching engine's index (and its songs by track), cached until the
    /// library changes.
    func matchingIndex() async throws -> (TrackCatalog<TrackID>, [TrackID: Song]) {
        let library = try await snapshot.current()
        if let libraryIndex, libraryIndex.generation == library.generation { return (libraryIndex.index, libraryIndex.byID) }
        let list = songs(of: library)
        let index = TrackCatalog(songs: list)
        let byID = Dictionary(list.map { ($0.track, $0) }, uniquingKeysWith: { a, _ in a })
        libraryIndex = (library.generation, index, byID)
        return (index, byID)
    }

    /// Every library track as a song, cached until the library changes.
    func librarySongs() async throws -> [Song] {
        songs(of: try await snapshot.current())
    }

    private func songs(of library: LibrarySnapshot.Tracks) -> [Song] {
        if let songs, songs.generation == library.generation { return songs.list }
        let list = library.tracks.map(Self.song)
        songs = (library.generation, list)
        return list
    }

    static func song(_ t: Track) -> Song {
        Song(
            track: t.id, title: t.title, artist: t.artist, album: t.album, duration: t.duration, genre: t.genre, year: t.year,
            composer: t.composer, isrc: t.isrc, tempo: t.bpm)
    }

    // MARK: - Style guides

    /// Writes the persona's style guide (the AI's, or Juke's own), streamed; the finished
    /// guide is saved to the persona even if the page that asked has gone away meanwhile.
    func styleGuide(_ id: PersonaID, for user: UserID) async throws -> AsyncThrowingStream<StreamEvent, any Error> {
        guard let persona = try await store.persona(id), persona.owner == user else { throw RuleRefusal.notFound("No such persona.") }
        let settings = try await store.settings(of: user, now: clock.now())
        let source = dj.styleGuide(for: persona, settings: settings)
        let store = self.store
        let clock = self.clock
        let logger = self.logger
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: StreamEvent.self)
        background.start("Back2Back style guide") {
            do {
                for try await event in source {
                    if case .done(let text) = event {
                        var updated = persona
                        updated.styleGuide = String(String.UnicodeScalarView(text.unicodeScalars.prefix(Persona.styleGuideLimit)))
                        updated.updatedAt = clock.now()
                        try await store.save(updated)
                    }
                    continuation.yield(event)
                }
                continuation.finish()
            } catch {
                logger.warning("Back2Back style guide not written", metadata: ["persona": "\(id)", "error": "\(describe(error))"])
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    // MARK: - Song memory

    /// Forgets what the user's personas played, and wakes their sessions that stalled because
    /// every song had played lately: each asks its DJ again.
    func clearMemory(owner: UserID, persona: PersonaID?) async throws {
        try await store.clearMemory(owner: owner, persona: persona)
        // Listed first, woken after: a woken session moves up the list it was read from.
        var hosted: [DJSessionID] = []
        var offset = 0
        while true {
            let (page, total) = try await store.sessions(for: owner, limit: 100, offset: offset)
            hosted += page.filter { $0.host == owner }.map(\.id)
            offset += page.count
            if page.isEmpty || offset >= total { break }
        }
        for id in hosted {
            do {
                try await apply(id, .retryAI)
            } catch {
                logger.warning("Back2Back session not woken", metadata: ["session": "\(id)", "error": "\(error)"])
            }
        }
    }

    // MARK: - People

    /// Display names of the users, for the session's page.
    func names(_ ids: [UserID]) async -> [UserID: String] {
        var out: [UserID: String] = [:]
        for id in Set(ids) {
            if let user = try? await users.user(id: id) { out[id] = user.displayName }
        }
        return out
    }
}
