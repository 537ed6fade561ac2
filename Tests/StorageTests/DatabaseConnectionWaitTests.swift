import Foundation
import JukeTestSupport
import SQLKit
import Storage
import Synchronization
import Testing

/// A PostgreSQL server with no free connection: a call that cannot get one within the
/// database's budget fails with `StorageError.noConnection` instead of waiting for good, and
/// once connections free up the same pool serves again by itself. "Full" is a role's
/// CONNECTION LIMIT, so the shared test server is never full for the other tests.
@Suite(.timeLimit(.minutes(2))) struct DatabaseConnectionWaitTests {
    @Test(.enabled(if: TestBackend.postgresAvailable, "needs PostgreSQL: JUKE_TEST_POSTGRES_URL"))
    func aCallThatGetsNoConnectionFailsWithinTheBudgetAndThePoolRecovers() async throws {
        try await TestDatabase.with(.postgres) { test in
            guard case .postgres(let admin) = test.location else { return }
            let role = LimitedRole(limit: 3)
            try await test.database.withConnection { db in try await role.create(on: db) }
            let settings = role.settings(from: admin)
            let logger = TestDatabase.logger
            let subject = try PostgresDatabase(settings: settings, connectionWait: .milliseconds(300), logger: logger)
            let outside = try PostgresDatabase(settings: settings, logger: logger)
            let holds = Holds()
            do {
                // One connection of the pool busy (so PostgresNIO's circuit breaker, which
                // trips only with no connection open, never ends the wait), two held from
                // outside: the role's three are taken.
                holds.hold(1, on: subject)
                holds.hold(2, on: outside)
                await holds.waitUntilHeld(3)

                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            await #expect(throws: StorageError.noConnection) {
                                try await subject.withConnection { db in try await db.raw("SELECT 1").run() }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                await #expect(throws: StorageError.noConnection) {
                    try await subject.transaction { db in try await db.raw("SELECT 1").run() }
                }

                // The outside lets go of its connections: the pool serves again by itself
                // (PostgresNIO retries with a growing back-off, so a few tries may still fail).
                holds.releaseAll()
                await outside.shutdown()
                var served = false
                for _ in 0..<200 where !served {
                    do {
                        try await subject.withConnection { db in try await db.raw("SELECT 1").run() }
                        served = true
                    } catch StorageError.noConnection {
                        continue
                    }
                }
                #expect(served, "the pool serves once connections are free")
                // No lease was kept by a call that gave up: the role's whole limit can be held again.
                let again = Holds()
                again.hold(3, on: subject)
                await again.waitUntilHeld(3)
                again.releaseAll()
            } catch {
                holds.releaseAll()
                await outside.shutdown()
                await subject.shutdown()
                try? await test.database.withConnection { db in try await role.drop(on: db) }
                throw error
            }
            await subject.shutdown()
            try await test.database.withConnection { db in try await role.drop(on: db) }
        }
    }

    /// SQLite's wait is its busy_timeout: a write that cannot get the lock another process
    /// holds fails with the same error once the wait is over.
    @Test func anSQLiteWriteThatCannotGetTheLockInTimeFailsWithTheSameError() async throws {
        try await TestDatabase.with(.sqlite) { test in
            guard case .sqlite(let path) = test.location else { return }
            let other = SQLiteDatabase(path: path, connectionWait: .milliseconds(100), logger: TestDatabase.logger)
            let holding = Task {
                try await test.database.transaction { db in
                    try await db.raw("CREATE TABLE budget_probe (id INTEGER)").run()
                    try await Task.sleep(for: .seconds(3600))
                }
            }
            do {
                // Until the holder has the lock, a write still goes through: try until one is refused.
                var refused = false
                for _ in 0..<100 where !refused {
                    do {
                        try await other.transaction { db in try await db.raw("SELECT 1").run() }
                        try await Task.sleep(for: .milliseconds(20))
                    } catch StorageError.noConnection {
                        refused = true
                    }
                }
                #expect(refused, "a write waiting past busy_timeout fails with StorageError.noConnection")
                holding.cancel()
                _ = await holding.result
                try await other.transaction { db in try await db.raw("SELECT 1").run() }
            } catch {
                // Closed before it goes, whatever failed: SQLiteNIO asserts on a connection let go of open.
                holding.cancel()
                _ = await holding.result
                await other.shutdown()
                throw error
            }
            await other.shutdown()
        }
    }

    /// A login role of its own with a CONNECTION LIMIT, dropped afterwards.
    struct LimitedRole {
        let name = "juke_budget_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let password = UUID().uuidString
        let limit: Int

        func create(on db: any SQLDatabase) async throws {
            let sql = "CREATE ROLE \(name) LOGIN NOSUPERUSER CONNECTION LIMIT \(limit) PASSWORD '\(password)'"
            try await db.raw(SQLQueryString(sql)).run()
        }

        func drop(on db: any SQLDatabase) async throws {
            let sql = "DROP ROLE IF EXISTS \(name)"
            try await db.raw(SQLQueryString(sql)).run()
        }

        func settings(from admin: DatabaseLocation.PostgresSettings) -> DatabaseLocation.PostgresSettings {
            var settings = admin
            settings.username = String(name)
            settings.password = password
            return settings
        }
    }

    /// Connections leased and kept until `releaseAll`.
    final class Holds: Sendable {
        private let tasks = Mutex<[Task<Void, Never>]>([])
        private let held = Mutex(0)

        func hold(_ count: Int, on database: any JukeDatabase) {
            for _ in 0..<count {
                let task = Task {
                    // A lease that misses its pool's wait (the subject's is 300 ms; on a loaded
                    // machine even a free connection can take longer to open) is asked again:
                    // one lost attempt left `waitUntilHeld` waiting for good (seen in a full run).
                    let holding = Mutex(false)
                    while !holding.withLock({ $0 }), !Task.isCancelled {
                        do {
                            try await database.withConnection { db in
                                try await db.raw("SELECT 1").run()
                                holding.withLock { $0 = true }
                                self.held.withLock { $0 += 1 }
                                try await Task.sleep(for: .seconds(3600))
                            }
                        } catch {
                            if !holding.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(50)) }
                        }
                    }
                }
                tasks.withLock { $0.append(task) }
            }
        }

        func waitUntilHeld(_ count: Int) async {
            while held.withLock({ $0 }) < count {
                do { try await Task.sleep(for: .milliseconds(10)) } catch { return }
            }
        }

        func releaseAll() {
            let all = tasks.withLock { tasks in
                defer { tasks = [] }
                return tasks
            }
            for task in all { task.cancel() }
        }
    }
}
