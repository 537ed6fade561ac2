import Foundation
import HTTPTypes
import HummingbirdBcrypt
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import Testing

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

@Suite(.timeLimit(.minutes(5))) struct AuthAPITests {
    @Test(arguments: TestBackend.available)
    func registersLogsInAndOut(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let created = try await client.json(
                .post, "/api/v1/auth/register", body: #"{"username":"alice","password":"correct horse","display_name":"Alice A."}"#)
            #expect(created.status == .created)
            let user = try #require(created.json["user"] as? [String: Any])
            #expect(user["display_name"] as? String == "Alice A.")
            #expect(user["is_admin"] as? Bool == true, "the first account is the admin")
            let cookie = try #require(created.headers[.setCookie])
            #expect(cookie.hasPrefix("juke_session=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))

            let second = try await client.json(.post, "/api/v1/auth/register", body: #"{"username":"bob","password":"correct horse"}"#)
            #expect((second.json["user"] as? [String: Any])?["is_admin"] as? Bool == false)

            let login = try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"ALICE","password":"correct horse"}"#)
            #expect(login.status == .ok)
            let token = try #require(login.json["token"] as? String)
            let me = try await client.json(.get, "/api/v1/auth/me", token: token)
            #expect(me.json["username"] as? String == "alice")

            let out = try await client.json(.post, "/api/v1/auth/logout", token: token)
            #expect(out.status == .noContent)
            #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await client.json(.get, "/api/v1/auth/me", token: token).status == .unauthorized)
        }
    }

    @Test(arguments: TestBackend.available)
    func refusesBadRegistrationsWithTheFieldToBlame(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let cases: [(String, HTTPResponse.Status, String?)] = [
                (#"{"username":"al","password":"correct horse"}"#, .unprocessableContent, "username"),
                (#"{"username":"al ice","password":"correct horse"}"#, .unprocessableContent, "username"),
                (#"{"username":"alice","password":"short"}"#, .unprocessableContent, "password"),
                (#"{"username":"alice","password":"correct horse","email":"not-an-email"}"#, .unprocessableContent, "email"),
                (#"{"username":"alice"}"#, .badRequest, nil),
                (#"{"username":5,"password":"correct horse"}"#, .badRequest, nil),
                (#"{"username":"alice","password":"#, .badRequest, nil),
            ]
            for (body, status, field) in cases {
                let r = try await client.json(.post, "/api/v1/auth/register", body: body)
                #expect(r.status == status, "\(body): \(r.json)")
                #expect(r.json["message"] is String, "\(body)")
                if let field { #expect(r.json["field"] as? String == field, "\(body)") }
            }
            _ = try await client.register("alice")
            let duplicate = try await client.json(.post, "/api/v1/auth/register", body: #"{"username":"Alice","password":"correct horse"}"#)
            #expect(duplicate.status == .conflict)
            let huge = String(repeating: "x", count: 10_000)
            let tooLarge = try await client.json(.post, "/api/v1/auth/register", body: #"{"username":"big","password":"\#(huge)"}"#)
            #expect(tooLarge.status == .contentTooLarge)
        }
    }

    @Test(arguments: TestBackend.available)
    func rateLimitsFailedLoginsPerAccount(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            _ = try await client.register("carol")
            for _ in 0..<5 {
                let r = try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"carol","password":"wrong password"}"#)
                #expect(r.status == .unauthorized)
                #expect(r.json["error"] as? String == "invalid_credentials")
            }
            // Even the right password waits now.
            let blocked = try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"carol","password":"correct horse"}"#)
            #expect(blocked.status == .tooManyRequests)
            let retry = try #require(blocked.headers[.retryAfter].flatMap { Int($0) })
            #expect(retry > 0 && retry <= 900)
            // Unknown users are refused the same way as wrong passwords.
            let unknown = try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"nobody","password":"whatever1"}"#)
            #expect(unknown.status == .unauthorized)
        }
    }

    /// Attempts sent at once are counted before any password is checked: they cannot all
    /// slip under the limit (40 at once used to get 40 answers of 401 and none of 429).
    @Test(arguments: TestBackend.available)
    func parallelSignInsCannotSlipUnderTheLimit(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            _ = try await client.register("carol")
            _ = try await client.register("dora")
            let wrong = #"{"username":"carol","password":"wrong password"}"#
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<40 { group.addTask { try await client.json(.post, "/api/v1/auth/login", body: wrong).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count <= 5, "at most the limit's worth are judged: \(statuses)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count >= 35)

            // One attempt left: 30 wrong and the right one at once; at most one is judged.
            for _ in 0..<4 { _ = try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"dora","password":"wrong password"}"#) }
            let mixed = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for i in 0..<31 {
                    let password = i == 15 ? "correct horse" : "wrong password"
                    group.addTask { try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"dora","password":"\#(password)"}"#).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(mixed.filter { $0 != .tooManyRequests }.count <= 1, "\(mixed)")
        }
    }

    /// bcrypt reads 72 bytes; Juke gives it the whole password's HMAC, so passwords that
    /// share their first 72 bytes are different passwords. Hashes from before are upgraded at
    /// the next sign-in.
    @Test(arguments: TestBackend.available)
    func everyByteOfALongPasswordCountsAndOldHashesAreUpgraded(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let long = String(repeating: "a", count: 72)
            let created = try await client.json(.post, "/api/v1/auth/register", body: #"{"username":"fran","password":"\#(long)1"}"#)
            #expect(created.status == .created)
            #expect(try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"fran","password":"\#(long)2"}"#).status == .unauthorized)
            #expect(try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"fran","password":"\#(long)1"}"#).status == .ok)

            // An account whose hash is plain bcrypt, as before: it signs in, and its hash is replaced.
            let users = app.services.platform.users
            let gus = User(id: UserID(), username: "gus", email: nil, displayName: "Gus", isAdmin: false, createdAt: Date())
            try await users.create(gus, passwordHash: Bcrypt.hash("old password", cost: 4))
            #expect(try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"gus","password":"old password"}"#).status == .ok)
            let upgraded = try #require(try await users.credentials(username: "gus")).passwordHash
            #expect(upgraded.hasPrefix(PasswordHasher.scheme))
            #expect(try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"gus","password":"old password"}"#).status == .ok)
        }
    }

    /// Sign-ups are limited per address (70 accounts in 12 s used to go through).
    @Test(arguments: TestBackend.available)
    func signUpsAreLimitedPerAddress(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            var statuses: [HTTPResponse.Status] = []
            for i in 0..<32 {
                statuses.append(try await client.json(.post, "/api/v1/auth/register", body: #"{"username":"new\#(i)","password":"correct horse"}"#).status)
            }
            #expect(statuses.prefix(30).allSatisfy { $0 == .created } && statuses.suffix(2).allSatisfy { $0 == .tooManyRequests }, "\(statuses)")
            let refused = try await client.json(.post, "/api/v1/auth/register", body: #"{"username":"late","password":"correct horse"}"#)
            #expect(refused.json["error"] as? String == "too_many_attempts" && refused.headers[.retryAfter] != nil)
        }
    }

    /// A server for a big room raises the limit (`--sign-ups-per-address`); a small one lowers it.
    @Test(arguments: TestBackend.available)
    func theSignUpLimitIsASetting(backend: TestBackend) async throws {
        try await TestApp.run(backend, configure: { $0.signUpsPerAddress = 3 }) { _, client in
            var statuses: [HTTPResponse.Status] = []
            for i in 0..<4 {
                statuses.append(try await client.json(.post, "/api/v1/auth/register", body: #"{"username":"guest\#(i)","password":"correct horse"}"#).status)
            }
            #expect(statuses == [.created, .created, .created, .tooManyRequests])
        }
    }

    /// Five wrong passwords from one address lock the account there, not everywhere.
    @Test(arguments: TestBackend.available)
    func aGuesserLocksTheAccountOnlyFromTheirAddress(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            _ = try await client.register("erin")
            let auth = app.services.platform.auth
            for _ in 0..<5 {
                await #expect(throws: APIError.self) { try await auth.login(username: "erin", password: "wrong password", address: "203.0.113.9") }
            }
            do {
                _ = try await auth.login(username: "erin", password: "correct horse", address: "203.0.113.9")
                Issue.record("the guesser's address is locked out of the account")
            } catch let error as APIError {
                #expect(error.status == .tooManyRequests)
            }
            let owner = try await auth.login(username: "erin", password: "correct horse", address: "198.51.100.7")
            #expect(owner.user.username == "erin", "the owner signs in from elsewhere")
        }
    }

    @Test(arguments: TestBackend.available)
    func rateLimitsFailedLoginsPerAddressAcrossAccounts(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            _ = try await client.register("erin")
            // Guessing across many accounts from one address: 20 failures, then the door shuts.
            for i in 0..<20 {
                let r = try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"user\#(i)","password":"guess guess"}"#)
                #expect(r.status == .unauthorized)
            }
            let blocked = try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"erin","password":"correct horse"}"#)
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.json["error"] as? String == "too_many_attempts")
        }
    }

    @Test(arguments: TestBackend.available)
    func theCookieAuthorisesReadsButNeverWrites(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let token = try await client.register("dave")
            let cookie: HTTPFields = [.cookie: "juke_session=\(token)"]
            #expect(try await client.json(.get, "/api/v1/auth/me", headers: cookie).status == .ok)
            #expect(try await client.json(.post, "/api/v1/auth/logout", headers: cookie).status == .unauthorized)
            #expect(try await client.json(.get, "/api/v1/auth/me", token: "forged").status == .unauthorized)
        }
    }

    @Test func theThrottleWaitsUntilTheOldestFailureLeavesTheWindow() {
        let throttle = LoginThrottle()
        let now = Date(timeIntervalSince1970: 10_000)
        #expect(throttle.retryAfter(failures: 4, oldest: now, limit: 5, now: now) == nil)
        #expect(throttle.retryAfter(failures: 5, oldest: now.addingTimeInterval(-600), limit: 5, now: now) == 300)
    }
}
