public import Logging
import NIOCore
import PostgresKit
public import PostgresNIO
import SQLKit
import Synchronization

/// PostgreSQL through PostgresNIO's connection pool. The pool's run loop starts with the
/// database and ends at `shutdown`, so commands, tests and the server use it alike.
///
/// A call waits at most `connectionWait` for a connection, then fails with
/// `StorageError.noConnection`. Left alone, PostgresNIO's pool waits for good when the server
/// refuses new connections ("too many clients") while one of its own is open: it retries
/// with a growing back-off and trips its circuit breaker only with no connection open.
public final class PostgresDatabase: JukeDatabase {
    public let kind = DatabaseKind.postgres
    public let client: PostgresClient
    private let logger: Logger
    private let runTask: Task<Void, Never>
    private let connectionWait: Duration
    private let isShutDown = Atomic(false)

    public init(
        settings: DatabaseLocation.PostgresSettings, connectionWait: Duration = DatabaseFactory.defaultConnectionWait, logger: Logger
    ) throws {
        var configuration = PostgresClient.Configuration(
            host: settings.host, port: settings.port, username: settings.username,
            password: settings.password, database: settings.database,
            tls: settings.requireTLS ? .require(.makeClientConfiguration()) : .disable
        )
        configuration.options.maximumConnections = 16
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        self.connectionWait = connectionWait
        self.runTask = Task { await client.run() }
    }

    public func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await leased { connection in try await body(connection.sql()) }
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
        try await leased { connection in
            // PostgresNIO hands over the notifications once the LISTEN has succeeded.
            try await connection.listen(on: channel) { notifications in
                await listening()
                for try await notification in notifications { await receive(notification.payload) }
            }
        }
    }

    /// Runs `body` on a leased connection, racing the lease against `connectionWait`. Whoever
    /// comes first wins the `LeaseRace`: a lease that comes after the deadline is handed back
    /// at once (PostgresNIO's `withConnection` releases it as `body` throws), and a wait that is
    /// given up leaves the pool's line (cancelling the lease removes the request), so nothing
    /// leaks either way.
    private func leased<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let race = LeaseRace()
        let client = client
        let wait = connectionWait
        do {
            return try await withoutActuallyEscaping(body) { body in
                try await withThrowingTaskGroup(of: T?.self) { group in
                    group.addTask {
                        try await client.withConnection { connection in
                            guard race.lease() else { throw StorageError.noConnection }
                            return try await body(connection)
                        }
                    }
                    group.addTask {
                        try await Task.sleep(for: wait)
                        guard race.expire() else { return nil }  // leased in time: the call goes on
                        throw StorageError.noConnection
                    }
                    while let result = try await group.next() {
                        guard let value = result else { continue }
                        group.cancelAll()  // the timer
                        return value
                    }
                    throw StorageError.noConnection  // unreachable: the call's own task always ends with a value or an error
                }
            }
        } catch {
            if race.wasLeased || Task.isCancelled { throw error }
            // The pool refused before any lease: shut down, or its circuit breaker tripped
            // (no connection could be made for a minute).
            if isShutDown.load(ordering: .relaxed) { throw StorageError.closed }
            if error is StorageError { throw error }
            logger.warning("PostgreSQL gave no connection", metadata: ["error": "\(error)"])
            throw StorageError.noConnection
        }
    }

    public func shutdown() async {
        isShutDown.store(true, ordering: .relaxed)
        runTask.cancel()
        await runTask.value
    }
}

/// Who came first: the lease or the deadline.
private final class LeaseRace: Sendable {
    private enum State { case waiting, leased, expired }
    private let state = Mutex(State.waiting)

    /// True when the lease came in time: the call goes on.
    func lease() -> Bool { settle(.leased) }
    /// True when the deadline came first: the call gives up.
    func expire() -> Bool { settle(.expired) }

    var wasLeased: Bool { state.withLock { $0 == .leased } }

    private func settle(_ outcome: State) -> Bool {
        state.withLock { state in
            guard state == .waiting else { return false }
            state = outcome
            return true
        }
    }
}
