public import SQLKit

public enum DatabaseKind: String, Sendable { case sqlite, postgres }

/// The storage interface every store is written against: a connection to run SQLKit
/// queries on. SQLite and PostgreSQL differ only behind this protocol and in `kind`.
public protocol JukeDatabase: Sendable {
    var kind: DatabaseKind { get }
    /// Runs `body` on one connection.
    func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs `body` in a transaction on one connection: committed if it returns, rolled back if it throws.
    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Closes every connection.
    func shutdown() async
    /// Tells every server on this database that something on `channel` changed
    /// (PostgreSQL's NOTIFY; SQLite serves one server, so nothing to tell).
    func notify(channel: String, payload: String) async throws
    /// Calls `receive` with each notification on `channel` until the task is cancelled
    /// (PostgreSQL's LISTEN; SQLite has none and just waits). `listening` is called once the
    /// LISTEN is in place: from then on no notification is missed.
    func listen(
        channel: String, listening: @escaping @Sendable () async -> Void, _ receive: @escaping @Sendable (String) async -> Void
    ) async throws
}

extension JukeDatabase {
    /// Listens on `channel`, with no call once the LISTEN is in place.
    public func listen(channel: String, _ receive: @escaping @Sendable (String) async -> Void) async throws {
        try await listen(channel: channel, listening: {}, receive)
    }
}

extension JukeDatabase {
    /// The column type for binary data, the one spelling that differs between the two.
    public var blobType: String { kind == .postgres ? "BYTEA" : "BLOB" }
}

/// Runs BEGIN/COMMIT/ROLLBACK around `body` on a single connection. COMMIT and ROLLBACK are
/// never cancelled (`uncancelled`): a cancelled caller's transaction still ends.
public func runTransaction<T: Sendable>(
    on db: any SQLDatabase, begin: String, _ body: @Sendable (any SQLDatabase) async throws -> T
) async throws -> T {
    try await db.raw(SQLQueryString(begin)).run()
    do {
        let result = try await body(db)
        try await uncancelled { try await db.raw("COMMIT").run() }
        return result
    } catch {
        try? await uncancelled { try await db.raw("ROLLBACK").run() }
        throw error
    }
}
