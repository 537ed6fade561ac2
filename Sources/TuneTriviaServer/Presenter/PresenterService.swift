import Foundation
import JukeCore
import JukePlatform
import Storage
import TuneTrivia

/// Big screens for TuneTrivia games (the presenter view): the TV or projector the room
/// watches, which plays the clip and shows the countdown, the reveal and the scores, while
/// the host's phone is the remote.
///
/// A screen is not a person: it holds a token scoped to one game, for a few hours, which
/// reads only what the whole room may see. It gets one by the one-time pairing code the host's
/// phone shows, or, on a screen where the host is signed in, by the game's invite code.
actor PresenterService {
    /// How long a pairing code waits to be typed.
    static let pairingLifetime: TimeInterval = 600
    /// How long a paired screen shows its game: a long party, not the next day.
    static let tokenLifetime: TimeInterval = 12 * 3600
    /// A screen that asked for the game within this long is on (it asks every second).
    static let connectedWindow: TimeInterval = 6
    /// A screen's "last seen" is written at most this often (it asks every second).
    static let seenInterval: TimeInterval = 2

    private let store: PresenterStore
    private let games: TuneTriviaService
    private let clock: WallClock
    /// Wrong codes per address: a guesser gets a few tries, not the code space.
    private let codeGuard = AttemptLimiter(limit: 10, window: 300)
    /// When each token's "last seen" was last written, by this server.
    private var seenWritten: [String: Date] = [:]
    var random = SystemRandomNumberGenerator()

    init(database: any JukeDatabase, games: TuneTriviaService, clock: WallClock) {
        self.store = PresenterStore(database: database)
        self.games = games
        self.clock = clock
    }

    /// A pairing issued to the host.
    struct Pairing: Sendable {
        let code: String
        let expires: Date
    }

    /// A screen's credential: the token (shown once, never stored) and its game.
    struct Credential: Sendable {
        let token: String
        let session: SessionID
        let expires: Date
    }

    /// A new pairing code for the game (host only); earlier unused codes stay valid until they expire.
    func startPairing(_ id: SessionID, by user: UserID) async throws -> Pairing {
        try await games.game(id).requireHost(user)
        let now = clock.now()
        try? await store.removeExpired(now: now)
        let expires = now.addingTimeInterval(Self.pairingLifetime)
        for _ in 0..<20 {
            let code = PairingCode.make(using: &random)
            do {
                try await store.addPairing(code, session: id, expires: expires, now: now)
                return Pairing(code: code, expires: expires)
            } catch StorageError.conflict {
                continue
            }
        }
        throw RuleRefusal.conflict("No free pairing code; try again.")
    }

    /// Pairs a screen: by a pairing code, or by the game's invite code when `user` is its host.
    func pair(code typed: String, user: User?, address: String?) async throws -> Credential {
        let attempt: AttemptLimiter.Attempt
        switch await codeGuard.take(address ?? "", now: clock.now()) {
        case .refused(let wait): throw RuleRefusal.tooManyAttempts("Too many wrong codes; try again later.", retryAfter: wait)
        case .taken(let taken): attempt = taken
        }
        let now = clock.now()
        let token = Tokens.generate()
        let expires = now.addingTimeInterval(Self.tokenLifetime)
        do {
            if let code = PairingCode.canonical(typed),
                let session = try await store.redeem(code, tokenHash: Tokens.hash(token), expires: expires, now: now)
            {
                await codeGuard.giveBack(attempt)
                return Credential(token: token, session: session, expires: expires)
            }
            if let code = InviteCode.canonical(typed), let session = try await games.sessionID(inviteCode: code) {
                await codeGuard.giveBack(attempt)  // a real game: what follows is not a guess
                guard let user else {
                    throw RuleRefusal.unauthenticated("Sign in as the game's host on this screen, or type the pairing code the host's phone shows.")
                }
                guard try await games.game(session).host == user.id else {
                    throw RuleRefusal.forbidden("Only the game's host can put it on a big screen.")
                }
                try await store.addToken(Tokens.hash(token), session: session, expires: expires, now: now)
                return Credential(token: token, session: session, expires: expires)
            }
        } catch {
            if !(error is RuleRefusal) { await codeGuard.giveBack(attempt) }  // a database failure is not a wrong code
            throw error
        }
        throw RuleRefusal.notFound("No such pairing code. Codes work once, for 10 minutes: ask the host for a new one.")
    }

    /// The game a screen's token shows; the screen counts as connected from now.
    func session(token: String) async throws -> SessionID {
        let hash = Tokens.hash(token)
        let now = clock.now()
        guard let session = try await store.session(tokenHash: hash, now: now) else {
            seenWritten[hash] = nil
            throw RuleRefusal.unauthenticated("This screen is no longer paired: pair it again.")
        }
        if let written = seenWritten[hash], now.timeIntervalSince(written) < Self.seenInterval, now >= written { return session }
        seenWritten[hash] = now
        if seenWritten.count > 10_000 { seenWritten = seenWritten.filter { now.timeIntervalSince($0.value) < Self.seenInterval } }
        try await store.seen(tokenHash: hash, at: now)
        return session
    }

    /// Whether a screen shows the game right now (host only), and when one last asked.
    func status(_ id: SessionID, by user: UserID) async throws -> (connected: Bool, lastSeen: Date?) {
        try await games.game(id).requireHost(user)
        let now = clock.now()
        let seen = try await store.lastSeen(session: id, now: now)
        return (seen.map { now.timeIntervalSince($0) < Self.connectedWindow } ?? false, seen)
    }

    /// Disconnects the game's screens and voids its unused codes (host only).
    func disconnect(_ id: SessionID, by user: UserID) async throws {
        try await games.game(id).requireHost(user)
        try await store.removeAll(session: id)
    }
}
