import Foundation
import JukeCore
import Storage

/// Who a Subsonic request is, and the keys and app passwords people make for their players:
/// the rules of `SubsonicCredentials` and `AppPasswordCheck` with storage, the server secret
/// and the sign-in limits around them.
///
/// The limits are the web sign-in's (`LoginThrottle`, the same failure log): a wrong
/// password or token counts against the account from this address, the account and the
/// address; a wrong API key against the address. Unlike the web sign-in, a correct credential
/// is not counted first: players send one with every request (each cover, each song), and
/// the app password and keys are 128 bits and more of the server's randomness, so what the
/// limit must stop is a flood of wrong guesses, which it does; once over a limit, every
/// wrong guess is answered with the wait and not even logged.
public struct SubsonicAccess: Sendable {
    let users: UserStore
    let credentials: SubsonicCredentialStore
    let secrets: SecretStore
    let clock: WallClock
    var throttle = LoginThrottle()

    /// Most keys one account may hold (each a player or device).
    static let maxKeysPerAccount = 50
    static let secretName = "subsonic-app-passwords"
    static let apiKeyPrefix = "juke_"

    // MARK: Signing in

    public func user(for presented: SubsonicCredentials, address: String) async throws -> User {
        switch presented {
        case .apiKey(let key):
            if let user = try await credentials.user(apiKeyHash: Tokens.hash(key), now: clock.now()) { return user }
            try await fail(subjects: [(LoginThrottle.addressSubject(address), throttle.maxFailuresPerAddress)], refusal: .invalidAPIKey)
        case .password(let username, _), .token(let username, _, _):
            if let stored = try await credentials.appPassword(username: username), let plain = try await seal().open(stored.sealed),
                AppPasswordCheck.matches(presented, appPassword: plain)
            {
                return stored.user
            }
            try await fail(subjects: throttle.subjects(username: username, address: address), refusal: .wrongCredentials)
        }
    }

    /// Records a wrong guess (unless a limit is already reached) and throws: the wait when a
    /// limit is reached, else the refusal.
    private func fail(subjects: [(subject: String, limit: Int)], refusal: SubsonicError) async throws -> Never {
        let now = clock.now()
        let since = now.addingTimeInterval(-throttle.window)
        for (subject, limit) in subjects {
            let (count, oldest) = try await users.loginFailures(subject: subject, since: since)
            if let wait = throttle.retryAfter(failures: count, oldest: oldest, limit: limit, now: now) {
                var error = SubsonicError(refusal.code, "Too many failed sign-ins. Try again in \(wait) seconds.")
                error.retryAfter = wait
                throw error
            }
        }
        try await users.recordLoginFailure(subjects: subjects.map(\.subject), at: now)
        throw refusal
    }

    private func seal() async throws -> AppPasswordSeal {
        AppPasswordSeal(secret: try await secrets.secret(named: Self.secretName))
    }

    // MARK: What a person makes on their account page

    public struct NewAPIKey: Sendable {
        public let record: SubsonicCredentialStore.APIKey
        public let key: String
    }

    public func createAPIKey(for user: User, name: String) async throws -> NewAPIKey {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...64).contains(trimmed.unicodeScalars.count) else { throw APIError.unprocessable("A key's name has 1 to 64 characters.", field: "name") }
        guard TextRules.isAllowed(trimmed) else {
            throw APIError.unprocessable("A key's name cannot contain control characters or bidirectional overrides.", field: "name")
        }
        guard try await credentials.countAPIKeys(user: user.id) < Self.maxKeysPerAccount else {
            throw APIError.conflict("An account holds at most \(Self.maxKeysPerAccount) API keys; revoke one first.", field: "name")
        }
        let key = Self.apiKeyPrefix + Tokens.generate()
        let id = UUID()
        let now = clock.now()
        try await credentials.addAPIKey(id: id, user: user.id, name: trimmed, keyHash: Tokens.hash(key), now: now)
        return NewAPIKey(record: .init(id: id, name: trimmed, createdAt: now, lastUsedAt: nil), key: key)
    }

    public func apiKeys(of user: User) async throws -> [SubsonicCredentialStore.APIKey] {
        try await credentials.apiKeys(user: user.id)
    }

    public func revokeAPIKey(_ id: UUID, of user: User) async throws {
        guard try await credentials.revokeAPIKey(id: id, user: user.id) else { throw APIError.notFound("API key") }
    }

    /// A new app password (replacing any before it), returned this once.
    public func createAppPassword(for user: User) async throws -> (password: String, createdAt: Date) {
        let password = AppPasswordCheck.generate()
        let now = clock.now()
        try await credentials.setAppPassword(user: user.id, sealed: try await seal().seal(password), now: now)
        return (password, now)
    }

    public func deleteAppPassword(of user: User) async throws {
        try await credentials.deleteAppPassword(user: user.id)
    }

    public func appPasswordCreatedAt(of user: User) async throws -> Date? {
        try await credentials.appPasswordCreatedAt(user: user.id)
    }
}
