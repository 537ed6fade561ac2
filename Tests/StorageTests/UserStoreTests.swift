import Foundation
import JukeCore
import JukeTestSupport
import SQLKit
import Testing

@testable import Storage

@Suite(.timeLimit(.minutes(5))) struct UserStoreTests {
    static func user(_ name: String, admin: Bool = false) -> User { testUser(name, admin: admin) }

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

@Suite(.timeLimit(.minutes(5))) struct MigrationTests {
    /// An app's tables as an app module brings them: numbered from 1 on its own.
    static let app = Schema(
        module: "testapp",
        migrations: [
            Migration(version: 1, name: "notes") { _ in ["CREATE TABLE testapp_notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)"] },
            Migration(version: 2, name: "note owner") { _ in ["ALTER TABLE testapp_notes ADD COLUMN owner TEXT"] },
        ],
        formerVersions: [7: 1, 8: 2])

    static func versions(_ database: any JukeDatabase) async throws -> [String: [Int]] {
        try await database.withConnection { sql in
            try await sql.raw("SELECT module, version FROM juke_migrations ORDER BY module, version").all().reduce(into: [:]) { out, row in
                out[try row.decode(column: "module", as: String.self), default: []].append(try row.decode(column: "version", as: Int.self))
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func migratingTwiceAndConcurrentlyIsHarmless(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            // Two servers starting at once on the same database.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 { group.addTask { try await Migrator.migrate(db.database, schemas: [.platform, Self.app], logger: TestDatabase.logger) } }
                try await group.waitForAll()
            }
            #expect(try await Self.versions(db.database) == ["platform": Array(1...Schema.platform.latestVersion), "testapp": [1, 2]])
        }
    }

    /// A database from before each module had its own numbering lists its migrations in
    /// schema_migrations; they are recorded under their modules and none runs again (running
    /// one again would fail: its table exists).
    @Test(arguments: TestBackend.available)
    func aDatabaseWithTheFormerNumberingIsAdoptedNotMigratedAgain(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            try await Migrator.migrate(db.database, schemas: [.platform, Self.app], logger: TestDatabase.logger)
            try await db.database.withConnection { sql in
                try await sql.raw("DROP TABLE juke_migrations").run()
                try await sql.raw("CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)")
                    .run()
                // The former list: the platform's 1, 2 and 6, the app's 7 (its 8 came later).
                for version in [1, 2, 6, 7] {
                    try await sql.raw("INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(bind: version), 'old', 0)").run()
                }
                try await sql.raw("ALTER TABLE testapp_notes DROP COLUMN owner").run()
                // Nor had the platform's sign-in attempts (its migration 4) come yet.
                try await sql.raw("DROP INDEX login_failures_attempt").run()
                try await sql.raw("ALTER TABLE login_failures DROP COLUMN attempt").run()
                // Nor its server secrets (5), nor the tracks' codec (6).
                try await sql.raw("DROP TABLE server_secrets").run()
                try await sql.raw("ALTER TABLE tracks DROP COLUMN codec").run()
                // Nor the catalog's albums, artists and order keys (7).
                for statement in [
                    "DROP TABLE albums", "DROP TABLE artists", "DROP INDEX tracks_album_order", "DROP INDEX tracks_artist_order",
                    "DROP INDEX tracks_order_artist", "DROP INDEX tracks_order_newest", "DROP INDEX tracks_genre_order", "DROP INDEX tracks_year_order",
                    "CREATE INDEX tracks_album ON tracks(album_id)", "CREATE INDEX tracks_artist ON tracks(artist_id)",
                    "ALTER TABLE tracks DROP COLUMN order_artist", "ALTER TABLE tracks DROP COLUMN order_album",
                    "ALTER TABLE tracks DROP COLUMN order_newest", "ALTER TABLE tracks DROP COLUMN genre_key",
                    "ALTER TABLE library_generation DROP COLUMN track_count", "ALTER TABLE library_generation DROP COLUMN album_count",
                    "ALTER TABLE library_generation DROP COLUMN artist_count",
                    // Nor the plays (8), the genre and year lists (9) and the search words (10).
                    "ALTER TABLE tracks DROP COLUMN play_count", "ALTER TABLE tracks DROP COLUMN last_played_at",
                    "DROP TABLE catalog_facets", "ALTER TABLE tracks DROP COLUMN search_words",
                    // Nor the Subsonic players' keys and app passwords (11).
                    "DROP TABLE subsonic_api_keys", "DROP TABLE subsonic_app_passwords",
                ] {
                    try await sql.raw(SQLQueryString(statement)).run()
                }
            }
            try await Migrator.migrate(db.database, schemas: [.platform, Self.app], logger: TestDatabase.logger)
            #expect(try await Self.versions(db.database) == ["platform": Array(1...11), "testapp": [1, 2]])
            // The app's second migration did run: its column is there.
            try await db.database.withConnection { sql in
                try await sql.raw("INSERT INTO testapp_notes (id, body, owner) VALUES ('a', 'b', 'c')").run()
            }
        }
    }

    @Test func twoModulesNamedAlikeAreRefused() async throws {
        try await TestDatabase.with(.sqlite) { db in
            await #expect(throws: StorageError.self) {
                try await Migrator.migrate(db.database, schemas: [Self.app, Self.app], logger: TestDatabase.logger)
            }
        }
    }
}

@Suite(.timeLimit(.minutes(5))) struct HousekeepingStoreTests {
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
