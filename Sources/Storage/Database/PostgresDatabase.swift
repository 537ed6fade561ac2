public import Logging
import NIOCore
import PostgresKit
public import PostgresNIO
import SQLKit

/// PostgreSQL through PostgresNIO's connection pool. The pool's run loop starts with the
/// database and ends at `shutdown`, so commands, tests and the server use it alike.
public final class PostgresDatabase: JukeDatabase {
    public let kind = DatabaseKind.postgres
    public let client: PostgresClient
    private let logger: Logger
    private let runTask: Task<Void, Never>

    public init(settings: DatabaseLocation.PostgresSettings, logger: Logger) throws {
        var configuration = PostgresClient.Configuration(
            host: settings.host, port: settings.port, username: settings.username,
            password: settings.password, database: settings.database,
            tls: settings.requireTLS ? .require(.makeClientConfiguration()) : .disable
        )
        configuration.options.maximumConnections = 16
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        self.runTask = Task { await client.run() }
    }

    public func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { connection in try await body(connection.sql()) }
    }

    public func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await withConnection { db in try await runTransaction(on: db, begin: "BEGIN", body) }
    }

    public func notify(channel: String, payload: String) async throws {
        try await withConnection { db in try await db.raw("SELECT pg_notify(\(bind: channel), \(bind: payload))").run() }
    }

    public func listen(
        channel: String, listening: @escaping @Sendable () async -> Void, _ receive: @escaping @Sendable (String) async -> Void
    ) async throws {
        try await client.withConnection { connection in
            // PostgresNIO hands over the notifications once the LISTEN has succeeded.
            try await connection.listen(on: channel) { notifications in
                await listening()
                for try await notification in notifications { await receive(notification.payload) }
            }
        }
    }

    public func shutdown() async {
        runTask.cancel()
        await runTask.value
    }
}
