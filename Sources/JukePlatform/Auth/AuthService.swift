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

    /// A new account from the sign-up page: limited per address, each attempt counted before
    /// any work (as sign-ins are), a refused or invalid one taking its count back.
    func register(username: String, password: String, email: String?, displayName: String?, address: String) async throws -> SignedIn {
        let now = clock.now()
        let subject = LoginThrottle.registrationSubject(address)
        let attempt = Tokens.generate()
        try await users.recordLoginFailure(subjects: [subject], at: now, attempt: attempt)
        let (count, oldest) = try await users.loginFailures(subject: subject, since: now.addingTimeInterval(-throttle.window))
        if let wait = throttle.retryAfter(failures: count - 1, oldest: oldest, limit: throttle.maxRegistrationsPerAddress, now: now) {
            try await users.forgetLoginAttempt(attempt)
            var error = APIError(
                status: .tooManyRequests, code: "too_many_attempts", message: "Too many new accounts from this address. Try again in \(wait) seconds.")
            error.retryAfter = wait
            throw error
        }
        do {
            let user = try await createAccount(username: username, password: password, email: email, displayName: displayName, isAdmin: nil)
            return try await issueToken(for: user)
        } catch {
            try? await users.forgetLoginAttempt(attempt)
            throw error
        }
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
        let subjects = throttle.subjects(username: username, address: address)
        // The attempt counts as a failure before its password is checked, then looks at the
        // count including itself: of any number of attempts at once, at most the limit's
        // worth see room under it (the last of them to count sees all the others).
        let attempt = Tokens.generate()
        try await users.recordLoginFailure(subjects: subjects.map(\.subject), at: now, attempt: attempt)
        for (subject, limit) in subjects {
            let (count, oldest) = try await users.loginFailures(subject: subject, since: since)
            if let wait = throttle.retryAfter(failures: count - 1, oldest: oldest, limit: limit, now: now) {
                try await users.forgetLoginAttempt(attempt)
                var error = APIError(status: .tooManyRequests, code: "too_many_attempts", message: "Too many failed sign-ins. Try again in \(wait) seconds.")
                error.retryAfter = wait
                throw error
            }
        }
        let credentials = try await users.credentials(username: username)
        let ok = try await hasher.verify(password, hash: credentials?.passwordHash ?? hasher.decoyHash)
        guard ok, let credentials else {
            // The attempt's rows stay: they are its failure.
            throw APIError(status: .unauthorized, code: "invalid_credentials", message: "Wrong username or password.")
        }
        try await users.forgetLoginAttempt(attempt)
        for (subject, _) in subjects.prefix(2) { try await users.clearLoginFailures(subject: subject) }
        // A hash from before the pre-hash is replaced now that its password is known.
        if hasher.needsUpgrade(credentials.passwordHash) {
            try await users.setPassword(credentials.user.id, passwordHash: try await hasher.hash(password))
        }
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
