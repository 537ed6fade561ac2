import Foundation
import JukeCore
import JukeTestSupport
import Testing

@testable import Storage

@Suite struct UserStoreTests {
    static func user(_ name: String, admin: Bool = false) -> User {
        User(
            id: UserID(), username: name, email: "\(name)@example.com", displayName: name.capitalized, isAdmin: admin,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test(arguments: TestBackend.available)
    func createsAndFindsUsersCaseInsensitively(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let store = UserStore(database: db.database)
            let alice = Self.user("Alice", admin: true)
            try await store.create(alice, passwordHash: "hash-a")
            let found = try #require(try await store.credentials(username: "alice"))
            #expect(found.user == alice)
            #expect(found.passwordHash == "hash-a")
            #expect(try await store.user(id: alice.id) == alice)
            #expect(try await store.count() == 1)
            await #expect(throws: StorageError.conflict("username 'ALICE'")) {
                try await store.create(Self.user("ALICE"), passwordHash: "x")
            }
            #expect(try await store.count() == 1)
        }
    }

    @Test(arguments: TestBackend.available)
    func tokensExpireAndCanBeRevoked(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let store = UserStore(database: db.database)
            let bob = Self.user("bob")
            try await store.create(bob, passwordHash: "h")
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            try await store.storeToken(hash: "t1", user: bob.id, createdAt: now, expiresAt: now.addingTimeInterval(60))
            #expect(try await store.user(tokenHash: "t1", now: now)?.id == bob.id)
            #expect(try await store.user(tokenHash: "t1", now: now.addingTimeInterval(61)) == nil)
            #expect(try await store.user(tokenHash: "nope", now: now) == nil)
            try await store.storeToken(hash: "t2", user: bob.id, createdAt: now, expiresAt: now.addingTimeInterval(60))
            try await store.revokeToken(hash: "t2")
            #expect(try await store.user(tokenHash: "t2", now: now) == nil)
            // A new password signs out every session.
            try await store.storeToken(hash: "t3", user: bob.id, createdAt: now, expiresAt: now.addingTimeInterval(60))
            try await store.setPassword(bob.id, passwordHash: "h2")
            #expect(try await store.user(tokenHash: "t3", now: now) == nil)
        }
    }

    @Test(arguments: TestBackend.available)
    func countsLoginFailuresInAWindow(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let store = UserStore(database: db.database)
            let t0 = Date(timeIntervalSince1970: 1_800_000_000)
            for i in 0..<3 { try await store.recordLoginFailure(subjects: ["user:x", "ip:1"], at: t0.addingTimeInterval(Double(i))) }
            let all = try await store.loginFailures(subject: "user:x", since: t0.addingTimeInterval(-1))
            #expect(all.count == 3)
            #expect(all.oldest == t0)
            #expect(try await store.loginFailures(subject: "user:x", since: t0.addingTimeInterval(0.5)).count == 2)
            try await store.clearLoginFailures(subject: "user:x")
            #expect(try await store.loginFailures(subject: "user:x", since: t0.addingTimeInterval(-1)).count == 0)
            #expect(try await store.loginFailures(subject: "ip:1", since: t0.addingTimeInterval(-1)).count == 3)
        }
    }
}

@Suite struct MigrationTests {
    @Test(arguments: TestBackend.available)
    func migratingTwiceAndConcurrentlyIsHarmless(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            // Two servers starting at once on the same database.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 { group.addTask { try await Migrator.migrate(db.database, logger: TestDatabase.logger) } }
                try await group.waitForAll()
            }
            let versions = try await db.database.withConnection { sql in
                try await sql.raw("SELECT version FROM schema_migrations ORDER BY version").all().map { try $0.decode(column: "version", as: Int.self) }
            }
            #expect(versions == Array(1...Migrator.latestVersion))
        }
    }
}

@Suite struct HousekeepingStoreTests {
    @Test(arguments: TestBackend.available)
    func expiredTokensAndOldFailuresAreDeleted(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let store = UserStore(database: db.database)
            let user = UserStoreTests.user("frank")
            try await store.create(user, passwordHash: "h")
            let now = Date(timeIntervalSince1970: 1_900_000_000)
            try await store.storeToken(hash: "old", user: user.id, createdAt: now.addingTimeInterval(-100), expiresAt: now.addingTimeInterval(-1))
            try await store.storeToken(hash: "live", user: user.id, createdAt: now, expiresAt: now.addingTimeInterval(100))
            try await store.recordLoginFailure(subjects: ["user:frank"], at: now.addingTimeInterval(-2000))
            try await store.recordLoginFailure(subjects: ["user:frank"], at: now)
            try await store.deleteExpiredTokens(now: now)
            try await store.pruneLoginFailures(before: now.addingTimeInterval(-900))
            let remaining = try await db.database.withConnection { sql in
                try await sql.raw("SELECT token_hash FROM auth_tokens").all().map { try $0.decode(column: "token_hash", as: String.self) }
            }
            #expect(remaining == ["live"])
            #expect(try await store.loginFailures(subject: "user:frank", since: .distantPast).count == 1)
        }
    }
}
