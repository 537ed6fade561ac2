import Foundation
public import Logging
import SQLKit

/// Brings a database up to the current schema on start. Safe when several servers start at
/// once: on PostgreSQL an advisory lock serialises them, on SQLite an IMMEDIATE transaction.
public enum Migrator {
    /// Arbitrary but fixed: identifies Juke's migration lock among advisory locks.
    static let advisoryLockKey = 0x4A75_6B65

    public static var latestVersion: Int { Schema.migrations.map(\.version).max() ?? 0 }

    public static func migrate(_ database: any JukeDatabase, logger: Logger) async throws {
        let blob = database.blobType
        let kind = database.kind
        try await database.withConnection { db in
            if kind == .postgres { try await db.raw("SELECT pg_advisory_lock(\(literal: advisoryLockKey))").run() }
            do {
                try await db.raw(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
                ).run()
                for migration in Schema.migrations {
                    let applied = try await runTransaction(on: db, begin: kind == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN") { tx in
                        let done = try await tx.raw("SELECT version FROM schema_migrations WHERE version = \(bind: migration.version)").all()
                        guard done.isEmpty else { return false }
                        for statement in migration.statements(blob) {
                            do {
                                try await tx.raw(SQLQueryString(statement)).run()
                            } catch {
                                throw StorageError.migrationFailed(version: migration.version, reason: String(reflecting: error))
                            }
                        }
                        try await tx.raw(
                            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: Date().timeIntervalSince1970))"
                        ).run()
                        return true
                    }
                    if applied { logger.info("applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"]) }
                }
            } catch {
                if kind == .postgres { try? await db.raw("SELECT pg_advisory_unlock(\(literal: advisoryLockKey))").run() }
                throw error
            }
            if kind == .postgres { try await db.raw("SELECT pg_advisory_unlock(\(literal: advisoryLockKey))").run() }
        }
    }
}
