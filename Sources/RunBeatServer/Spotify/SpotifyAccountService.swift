import Foundation
import JukeCore
import JukePlatform
import Logging
import Providers
import Storage

/// A runner's Spotify account on the server: connecting (Authorization Code with PKCE, the
/// verifier sealed in the row until Spotify sends the runner back), tokens sealed at rest and
/// refreshed before they run out or when Spotify answers 401, `invalid_grant` turned into
/// "connect again", and the calls RunBeat makes with a good token.
actor SpotifyAccountService {
    let accounts: SpotifyAccounts
    let api: SpotifyWebAPI
    let store: SpotifyStore
    let sealer: TokenSealer
    let clock: WallClock
    /// The server's one outbound client, for the reachability check.
    let http: HTTPClient
    let logger: Logger
    /// Refreshes under way, so that the page, the playback and the job share one.
    private var refreshing: [UserID: Task<String, any Error>] = [:]

    /// How long an authorisation may take before its state is no longer accepted.
    static let authorizationLifetime: TimeInterval = 600
    /// A token this close to running out is refreshed before it is used.
    static let refreshMargin: TimeInterval = 60

    init(http: HTTPClient, settings: SpotifySettings, redirect: String, store: SpotifyStore, secrets: SecretStore, clock: WallClock, logger: Logger) {
        self.http = http
        self.accounts = SpotifyAccounts(http: http, baseURL: settings.accountsURL, clientID: settings.clientID, redirectURI: redirect)
        self.api = SpotifyWebAPI(http: http, baseURL: settings.apiURL)
        self.store = store
        self.sealer = TokenSealer(secrets: secrets, key: settings.tokenKey)
        self.clock = clock
        self.logger = logger
    }

    // MARK: Connecting

    /// Where to send the runner: Spotify's authorisation with a fresh state and challenge.
    /// `session` is the hash of the starting browser's session token: the state is good only
    /// in a callback that the same browser opens (its session cookie), never in another's.
    func authorizationURL(for user: UserID, session: String) async throws -> URL {
        var generator = SystemRandomNumberGenerator()
        let verifier = SpotifyPKCE.verifier(using: &generator)
        let state = SpotifyPKCE.verifier(length: 43, using: &generator)
        guard let url = accounts.authorizeURL(state: state, challenge: SpotifyPKCE.challenge(for: verifier)) else {
            throw RuleRefusal.conflict("Spotify's address is not usable; check --spotify-accounts-url")
        }
        try await store.startAuthorization(of: user, state: state, verifier: try await sealer.seal(verifier, for: user), session: session, now: clock.now())
        return url
    }

    /// Whether Spotify's accounts service answers at all (any HTTP status will do): without
    /// the internet its sign-in page would not load in the runner's browser either, which
    /// shares this server's network in a home, so connecting is refused first, in words.
    func accountsReachable() async -> Bool {
        var request = OutboundRequest(url: accounts.baseURL)
        request.httpMethod = "HEAD"
        do {
            _ = try await http.send(request, timeout: Self.reachableWithin)
            return true
        } catch {
            logger.info("runbeat: Spotify's accounts service is out of reach", metadata: ["error": "\(error)"])
            return false
        }
    }

    static let reachableWithin: TimeInterval = 5

    /// Spotify sent the runner back: the code exchanged for tokens (with the verifier kept
    /// for this state), or the refusal recorded. Returns the runner it was for.
    /// `session` is the hash of the session token the callback's browser presented: only the
    /// browser that started the authorisation may finish it. Otherwise a link to the callback
    /// (the starter's state with a code from whoever approved at Spotify) would attach that
    /// person's Spotify to the starter's account. A refused callback writes nothing and
    /// leaves the state to its own browser.
    func authorized(state: String, code: String?, error: String?, session: String?) async throws -> UserID {
        guard !state.isEmpty, state.count <= 128, let account = try await store.account(pendingState: state), let sealed = account.pendingVerifier,
            let started = account.pendingAt
        else { throw RuleRefusal.notFound("This Spotify sign-in is unknown or was already used; connect again from RunBeat.") }
        guard let session, let expected = account.pendingSession, Self.same(session, expected) else {
            throw RuleRefusal.forbidden(
                "This Spotify sign-in was started in another browser or by another account. Sign in to Juke in the browser that started it, or connect again from RunBeat."
            )
        }
        guard try await store.takeAuthorization(state: state, of: account.user) else {
            throw RuleRefusal.notFound("This Spotify sign-in was already used.")
        }
        let now = clock.now()
        guard now.timeIntervalSince(started) <= Self.authorizationLifetime else {
            throw RuleRefusal.conflict("The Spotify sign-in took more than ten minutes; connect again.")
        }
        if let error {
            let text = error == "access_denied" ? "You did not allow Juke to use Spotify." : "Spotify refused: \(error.prefix(100))"
            try await store.failed(account.user, error: text, reauthorize: false, now: now)
            throw RuleRefusal.forbidden(text)
        }
        guard let code, !code.isEmpty, code.count <= 2048 else { throw RuleRefusal.invalid("code", "Spotify sent no code back.") }
        let tokens = try await accounts.exchange(code: code, verifier: try await sealer.open(sealed, for: account.user), now: now)
        try await store.connect(
            account.user, access: try await sealer.seal(tokens.accessToken, for: account.user),
            refresh: try await sealer.seal(tokens.refreshToken, for: account.user), expiresAt: tokens.expiresAt, scope: tokens.scope, now: now)
        logger.info("runbeat: Spotify connected", metadata: ["user": "\(account.user)"])
        return account.user
    }

    /// Two hashes compared in time that does not depend on where they first differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    func account(of user: UserID) async throws -> SpotifyStore.Account? { try await store.account(of: user) }

    func disconnect(_ user: UserID) async throws {
        refreshing[user]?.cancel()
        refreshing[user] = nil
        try await store.delete(user)
    }

    // MARK: Tokens

    /// A usable access token: the stored one, or a fresh one when it runs out within a minute
    /// (or `force`: Spotify just answered 401 to it).
    func accessToken(for user: UserID, force: Bool = false) async throws -> String {
        guard let account = try await store.account(of: user) else { throw RuleRefusal.notFound("Connect Spotify first.") }
        guard account.status == .connected, let sealed = account.accessToken, let expires = account.expiresAt else {
            throw SpotifyError.invalidGrant(account.lastError ?? "Spotify is not connected")
        }
        if !force && expires.timeIntervalSince(clock.now()) > Self.refreshMargin { return try await unsealed(sealed, of: user) }
        return try await refresh(account)
    }

    /// A stored token opened; one this server's key cannot open (the operator changed the
    /// key) leaves the runner to connect again rather than failing every call.
    private func unsealed(_ sealed: String, of user: UserID) async throws -> String {
        do {
            return try await sealer.open(sealed, for: user)
        } catch let error as TokenSealer.SealError {
            try await store.failed(user, error: error.description, reauthorize: true, now: clock.now())
            throw SpotifyError.invalidGrant(error.description)
        }
    }

    /// Refreshes `account`'s tokens once however many ask at the same time.
    func refresh(_ account: SpotifyStore.Account) async throws -> String {
        if let running = refreshing[account.user] { return try await running.value }
        let task = Task { try await self.performRefresh(account) }
        refreshing[account.user] = task
        defer { refreshing[account.user] = nil }
        return try await task.value
    }

    private func performRefresh(_ account: SpotifyStore.Account) async throws -> String {
        let user = account.user
        guard let sealed = account.refreshToken else { throw SpotifyError.invalidGrant("no refresh token is stored") }
        let now = clock.now()
        do {
            let tokens = try await accounts.refresh(try await sealer.open(sealed, for: user), now: now)
            let stored = try await store.refreshed(
                user, from: account.version, access: try await sealer.seal(tokens.accessToken, for: user),
                refresh: try await sealer.seal(tokens.refreshToken, for: user), expiresAt: tokens.expiresAt, scope: tokens.scope, now: now)
            if !stored {
                // Another server refreshed first: its tokens are as good, and newer.
                if let newer = try await store.account(of: user), newer.status == .connected, let access = newer.accessToken {
                    return try await unsealed(access, of: user)
                }
            }
            return tokens.accessToken
        } catch SpotifyError.invalidGrant(let why) {
            try await store.failed(user, error: "Spotify needs you to connect again (\(why))", reauthorize: true, now: now)
            logger.notice("runbeat: Spotify refresh token refused; the runner must connect again", metadata: ["user": "\(user)"])
            throw SpotifyError.invalidGrant(why)
        } catch let error as SpotifyError {
            try await store.failed(user, error: error.description, reauthorize: false, now: now)
            throw error
        } catch let error as TokenSealer.SealError {
            try await store.failed(user, error: error.description, reauthorize: true, now: now)
            throw SpotifyError.invalidGrant(error.description)
        }
    }

    /// Runs `call` with a good token; a 401 refreshes the token and tries once more.
    func withToken<T: Sendable>(for user: UserID, _ call: @Sendable (String) async throws -> T) async throws -> T {
        let token = try await accessToken(for: user)
        do {
            return try await call(token)
        } catch SpotifyError.unauthorized {
            return try await call(try await accessToken(for: user, force: true))
        }
    }

    // MARK: What RunBeat asks Spotify

    func playlists(of user: UserID, limit: Int, offset: Int) async throws -> (playlists: [SpotifyWebAPI.Playlist], total: Int, more: Bool) {
        let api = self.api
        return try await withToken(for: user) { token in try await api.playlists(token: token, limit: limit, offset: offset) }
    }

    func devices(of user: UserID) async throws -> [SpotifyWebAPI.Device] {
        let api = self.api
        return try await withToken(for: user) { token in try await api.devices(token: token) }
    }

    /// The device RunBeat plays on when none is active (nil: whichever Spotify offers first).
    func chooseDevice(_ id: String?, for user: UserID) async throws -> SpotifyStore.Account {
        guard try await store.account(of: user)?.status == .connected else { throw RuleRefusal.conflict("Connect Spotify first.") }
        var name: String?
        if let id {
            guard let device = try await devices(of: user).first(where: { $0.id == id }) else {
                throw RuleRefusal.unprocessable("device_id", "Spotify lists no such device now; open Spotify on it first.")
            }
            name = device.name
        }
        try await store.chooseDevice(user, id: id, name: name, now: clock.now())
        guard let account = try await store.account(of: user) else { throw RuleRefusal.notFound("Connect Spotify first.") }
        return account
    }

    func play(_ playlist: String, on device: String?, for user: UserID) async throws {
        let api = self.api
        try await withToken(for: user) { token in try await api.play(playlist: playlist, device: device, token: token) }
    }

    func pause(for user: UserID) async throws {
        let api = self.api
        try await withToken(for: user) { token in try await api.pause(token: token) }
    }

    /// Carries on with what was paused, where it stopped (on `device`, or the active one).
    func resume(on device: String?, for user: UserID) async throws {
        let api = self.api
        try await withToken(for: user) { token in try await api.resume(device: device, token: token) }
    }

    func transfer(to device: String, for user: UserID) async throws {
        let api = self.api
        try await withToken(for: user) { token in try await api.transfer(to: device, token: token) }
    }

    // MARK: The refresh job

    struct RefreshRun: Sendable {
        var at: Date
        var checked = 0
        var refreshed = 0
        var reauthorize = 0
        var failed = 0
    }

    /// Refreshes every token that would run out before `horizon` from now (the job's period
    /// and a margin), so a runner whose phone is away never meets an expired one.
    func refreshExpiring(horizon: TimeInterval) async throws -> RefreshRun {
        let now = clock.now()
        var run = RefreshRun(at: now)
        for account in try await store.expiring(before: now.addingTimeInterval(horizon)) {
            run.checked += 1
            do {
                _ = try await refresh(account)
                run.refreshed += 1
            } catch SpotifyError.invalidGrant {
                run.reauthorize += 1
            } catch {
                run.failed += 1
                logger.warning("runbeat: a Spotify token was not refreshed", metadata: ["user": "\(account.user)", "error": "\(error)"])
            }
        }
        return run
    }
}
