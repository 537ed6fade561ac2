import Foundation
public import Logging
import SQLKit

/// Brings a database up to the current schema on start: the platform's tables, then each
/// app's, in the order given. Each module's versions are recorded under its name in
/// `juke_migrations`. Safe when several servers start at once: on PostgreSQL an advisory
/// lock serialises them, on SQLite an IMMEDIATE transaction.
public enum Migrator {
    /// Arbitrary but fixed: identifies Juke's migration lock among advisory locks.
    static let advisoryLockKey = 0x4A75_6B65

    public static func migrate(_ database: any JukeDatabase, schemas: [Schema], logger: Logger) async throws {
        let names = schemas.map(\.module)
        guard Set(names).count == names.count else { throw StorageError.unsupported("two schemas named alike in \(names)") }
        let blob = database.blobType
        let kind = database.kind
        let begin = kind == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN"
        try await database.withConnection { db in
            if kind == .postgres { try await db.raw("SELECT pg_advisory_lock(\(literal: advisoryLockKey))").run() }
            do {
                try await db.raw(
                    """
                    CREATE TABLE IF NOT EXISTS juke_migrations (
                        module TEXT NOT NULL, version BIGINT NOT NULL, name TEXT NOT NULL,
                        applied_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (module, version))
                    """
                ).run()
                try await runTransaction(on: db, begin: begin) { tx in try await adoptFormerVersions(tx, kind: kind, schemas: schemas) }
                for schema in schemas {
                    for migration in schema.migrations.sorted(by: { $0.version < $1.version }) {
                        let applied = try await runTransaction(on: db, begin: begin) { tx in
                            try await apply(migration, of: schema.module, on: tx, blob: blob)
                        }
                        if applied {
                            logger.info(
                                "applied migration", metadata: ["module": "\(schema.module)", "version": "\(migration.version)", "name": "\(migration.name)"])
                        }
                    }
                }
            } catch {
                if kind == .postgres { try? await db.raw("SELECT pg_advisory_unlock(\(literal: advisoryLockKey))").run() }
                throw error
            }
            if kind == .postgres { try await db.raw("SELECT pg_advisory_unlock(\(literal: advisoryLockKey))").run() }
        }
    }

    /// The versions already applied to `module`, oldest first (tests, and `juke` diagnostics).
    public static func appliedVersions(_ database: any JukeDatabase, module: String) async throws -> [Int] {
        try await database.withConnection { db in
            try await db.raw("SELECT version FROM juke_migrations WHERE module = \(bind: module) ORDER BY version").all()
                .map { try $0.decode(column: "version", as: Int.self) }
        }
    }

    private static func apply(_ migration: Migration, of module: String, on tx: any SQLDatabase, blob: String) async throws -> Bool {
        let done = try await tx.raw(
            "SELECT version FROM juke_migrations WHERE module = \(bind: module) AND version = \(bind: migration.version)"
        ).all()
        guard done.isEmpty else { return false }
        for statement in migration.statements(blob) {
            do {
                try await tx.raw(SQLQueryString(statement)).run()
            } catch {
                throw StorageError.migrationFailed(version: migration.version, reason: "\(module): \(String(reflecting: error))")
            }
        }
        if let rewrite = migration.rewrite {
            do {
                try await rewrite(tx)
            } catch {
                throw StorageError.migrationFailed(version: migration.version, reason: "\(module): \(String(reflecting: error))")
            }
        }
        try await tx.raw(
            """
            INSERT INTO juke_migrations (module, version, name, applied_at)
            VALUES (\(bind: module), \(bind: migration.version), \(bind: migration.name), \(bind: Date().timeIntervalSince1970))
            """
        ).run()
        return true
    }

    /// A database from before per-module numbering lists its migrations in
    /// `schema_migrations`: record each one under its module once, so none runs again.
    private static func adoptFormerVersions(_ tx: any SQLDatabase, kind: DatabaseKind, schemas: [Schema]) async throws {
        let exists: Bool
        switch kind {
        case .sqlite:
            exists = try await !tx.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").all().isEmpty
        case .postgres:
            exists =
                try await !tx.raw(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'"
                ).all().isEmpty
        }
        guard exists else { return }
        let former = Set(try await tx.raw("SELECT version FROM schema_migrations").all().map { try $0.decode(column: "version", as: Int.self) })
        for schema in schemas {
            for (old, new) in schema.formerVersions.sorted(by: { $0.key < $1.key }) where former.contains(old) {
                guard let migration = schema.migrations.first(where: { $0.version == new }) else { continue }
                let done = try await tx.raw(
                    "SELECT version FROM juke_migrations WHERE module = \(bind: schema.module) AND version = \(bind: new)"
                ).all()
                guard done.isEmpty else { continue }
                try await tx.raw(
                    """
                    INSERT INTO juke_migrations (module, version, name, applied_at)
                    VALUES (\(bind: schema.module), \(bind: new), \(bind: migration.name), \(bind: Date().timeIntervalSince1970))
                    """
                ).run()
            }
        }
    }
}
