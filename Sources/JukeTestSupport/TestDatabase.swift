import Foundation
import Logging
import SQLKit
import Storage
import Synchronization

/// The backends every storage-touching test runs on. SQLite always; PostgreSQL when
/// JUKE_TEST_POSTGRES_URL names a server (the test script starts one). Under CI the
/// PostgreSQL run is required, so a missing server fails instead of silently shrinking
/// the suite.
public enum TestBackend: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite, postgres
    public var description: String { rawValue }

    public static var available: [TestBackend] {
        let env = ProcessInfo.processInfo.environment
        if env["JUKE_TEST_POSTGRES_URL"] != nil || env["CI"] != nil { return [.sqlite, .postgres] }
        return [.sqlite]
    }

    /// Whether the tests that need two servers on one PostgreSQL run; they are reported as
    /// skipped, not passed, when it is missing.
    public static var postgresAvailable: Bool { available.contains(.postgres) }
}

/// A fresh database with the platform's tables and those of `schemas` (the apps a test
/// needs), thrown away afterwards.
public struct TestDatabase: Sendable {
    public let database: any JukeDatabase
    public let location: DatabaseLocation
    private let cleanupAction: @Sendable () async -> Void

    public static let logger: Logger = {
        var logger = Logger(label: "juke.test")
        logger.logLevel = .warning
        return logger
    }()

    /// One pool for the whole run's CREATE and DROP DATABASE, never shut down (the process's
    /// end closes it). A pool per test database, shut down with it, was made and ended some 400
    /// times a run, and a full run stood still more than once in that shutdown, with no
    /// PostgreSQL session left open ("the admin pool's shutdown", still waiting after minutes).
    private static let sharedAdmin = Mutex<PostgresDatabase?>(nil)

    private static func admin(_ settings: DatabaseLocation.PostgresSettings) throws -> PostgresDatabase {
        try sharedAdmin.withLock { admin in
            if let admin { return admin }
            let made = try PostgresDatabase(settings: settings, connectionWait: .seconds(60), logger: logger)
            admin = made
            return made
        }
    }

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    public static func make(_ backend: TestBackend, schemas: [Schema] = []) async throws -> TestDatabase {
        switch backend {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let location = DatabaseLocation.sqlite(path: folder.appendingPathComponent("juke.sqlite").path)
            let database = try DatabaseFactory.open(location, logger: logger)
            do {
                try await Migrator.migrate(database, schemas: [.platform] + schemas, logger: logger)
            } catch {
                // A test cancelled (its time limit) while migrating: the connections are closed
                // before they are let go of, which SQLiteNIO asserts (it crashed the whole run).
                await database.shutdown()
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
            return TestDatabase(database: database, location: location) {
                await database.shutdown()
                try? FileManager.default.removeItem(at: folder)
            }
        case .postgres:
            guard let url = ProcessInfo.processInfo.environment["JUKE_TEST_POSTGRES_URL"] else {
                throw Unavailable(description: "JUKE_TEST_POSTGRES_URL is not set; run the tests with Scripts/test.sh, which starts PostgreSQL")
            }
            guard case .postgres(var settings) = try DatabaseLocation.parse(url, dataDirectory: "/tmp") else {
                throw Unavailable(description: "JUKE_TEST_POSTGRES_URL is not a postgres:// URL")
            }
            try await PostgresTestSlots.shared.acquire()
            let admin: PostgresDatabase
            do {
                admin = try Self.admin(settings)
            } catch {
                PostgresTestSlots.shared.release()
                throw error
            }
            let name = "juke_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
            let database: any JukeDatabase
            do {
                try await admin.withConnection { db in try await db.raw(SQLQueryString("CREATE DATABASE \(name)")).run() }
                settings.database = String(name)
                // A minute's wait for a connection, not the server's 10 s: with a dozen tests
                // making and dropping databases at once, a new pool's first connection has been
                // seen to take longer (servesPagesAndStaticFiles failed so in a full run on an
                // otherwise idle machine). The budget itself is DatabaseConnectionWaitTests'.
                database = try DatabaseFactory.open(.postgres(settings), connectionWait: .seconds(60), logger: logger)
            } catch {
                PostgresTestSlots.shared.release()
                throw error
            }
            let location = DatabaseLocation.postgres(settings)
            let drop: @Sendable () async -> Void = {
                await reportingIfSlow("PostgreSQL database \(name): shutdown") { await database.shutdown() }
                await reportingIfSlow("PostgreSQL database \(name): drop") {
                    try? await admin.withConnection { db in try await db.raw(SQLQueryString("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")).run() }
                }
                PostgresTestSlots.shared.release()
            }
            do {
                try await Migrator.migrate(database, schemas: [.platform] + schemas, logger: logger)
            } catch {
                await drop()
                throw error
            }
            return TestDatabase(database: database, location: location, cleanup: drop)
        }
    }

    init(database: any JukeDatabase, location: DatabaseLocation, cleanup: @escaping @Sendable () async -> Void) {
        self.database = database
        self.location = location
        self.cleanupAction = cleanup
    }

    public func cleanup() async { await cleanupAction() }

    /// Runs `body` with a fresh database and always cleans up.
    public static func with<T: Sendable>(
        _ backend: TestBackend, schemas: [Schema] = [], _ body: (TestDatabase) async throws -> T
    ) async throws -> T {
        let db = try await make(backend, schemas: schemas)
        do {
            let result = try await body(db)
            await db.cleanup()
            return result
        } catch {
            await db.cleanup()
            throw error
        }
    }
}
