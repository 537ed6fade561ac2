import Foundation
import JukeCore
import Storage

/// Accounts and sign-in: the rules (validation, first user is admin, rate limits) with
/// storage and hashing injected.
struct AuthService: Sendable {
    let users: UserStore
    let hasher: PasswordHasher
    let clock: WallClock
    let tokenLifetime: TimeInterval
    var throttle = LoginThrottle()

    struct SignedIn: Sendable {
        let user: User
        let token: String
        let expiresAt: Date
    }

    func register(username: String, password: String, email: String?, displayName: String?) async throws -> SignedIn {
        let user = try await createAccount(username: username, password: password, email: email, displayName: displayName, isAdmin: nil)
        return try await issueToken(for: user)
    }

    /// Validates the fields, hashes the password and stores the account (registration and
    /// `juke user create` alike). `isAdmin` nil means "admin if it is the first account".
    func createAccount(username: String, password: String, email: String?, displayName: String?, isAdmin: Bool?) async throws -> User {
        let name = try AccountRules.validateUsername(username)
        try AccountRules.validatePassword(password)
        let mail = try AccountRules.validateEmail(email)
        let display = try AccountRules.validateDisplayName(displayName, fallback: name)
        return try await createUser(username: name, passwordHash: try await hasher.hash(password), email: mail, displayName: display, isAdmin: isAdmin)
    }

    private func createUser(username: String, passwordHash: String, email: String?, displayName: String, isAdmin: Bool?) async throws -> User {
        let admin: Bool
        if let isAdmin { admin = isAdmin } else { admin = try await users.count() == 0 }
        let user = User(id: UserID(), username: username, email: email, displayName: displayName, isAdmin: admin, createdAt: clock.now())
        do {
            try await users.create(user, passwordHash: passwordHash)
        } catch StorageError.conflict {
            throw APIError.conflict("The username '\(username)' is taken.", field: "username")
        }
        return user
    }

    func login(username: String, password: String, address: String) async throws -> SignedIn {
        let now = clock.now()
        let since = now.addingTimeInterval(-throttle.window)
        let account = LoginThrottle.accountSubject(username)
        let addressKey = LoginThrottle.addressSubject(address)
        for (subject, limit) in [(account, throttle.maxFailuresPerAccount), (addressKey, throttle.maxFailuresPerAddress)] {
            let (count, oldest) = try await users.loginFailures(subject: subject, since: since)
            if let wait = throttle.retryAfter(failures: count, oldest: oldest, limit: limit, now: now) {
                var error = APIError(status: .tooManyRequests, code: "too_many_attempts", message: "Too many failed sign-ins. Try again in \(wait) seconds.")
                error.retryAfter = wait
                throw error
            }
        }
        let credentials = try await users.credentials(username: username)
        let ok = try await hasher.verify(password, hash: credentials?.passwordHash ?? hasher.decoyHash)
        guard ok, let credentials else {
            try await users.recordLoginFailure(subjects: [account, addressKey], at: now)
            throw APIError(status: .unauthorized, code: "invalid_credentials", message: "Wrong username or password.")
        }
        try await users.clearLoginFailures(subject: account)
        return try await issueToken(for: credentials.user)
    }

    func issueToken(for user: User) async throws -> SignedIn {
        let token = Tokens.generate()
        let now = clock.now()
        let expires = now.addingTimeInterval(tokenLifetime)
        try await users.storeToken(hash: Tokens.hash(token), user: user.id, createdAt: now, expiresAt: expires)
        return SignedIn(user: user, token: token, expiresAt: expires)
    }

    func logout(tokenHash: String) async throws {
        try await users.revokeToken(hash: tokenHash)
    }
}
