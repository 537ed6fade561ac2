public import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// The embedded database: a small pool of SQLite connections to one file in WAL mode, so
/// that readers never wait for the writer and the `juke` command can write while a server
/// runs on the same file (busy_timeout makes a second writer wait instead of failing).
///
/// The database's `connectionWait` is that busy_timeout: how long a call waits for the lock
/// another process holds before `StorageError.noConnection`, as PostgreSQL's calls wait for a
/// connection. Waits inside this process (for one of its connections, for the writer's turn)
/// are not bounded: whoever holds what they wait for is in this process and finishing.
public actor SQLiteDatabase: JukeDatabase {
    public nonisolated let kind = DatabaseKind.sqlite
    private let storage: SQLiteConnection.Storage
    private let logger: Logger
    private let maxConnections: Int
    private var idle: [SQLiteConnection] = []
    private var open = 0
    private var waiters: [CheckedContinuation<SQLiteConnection, any Error>] = []
    private var isShutDown = false
    /// One writer at a time in this process. SQLite allows one anyway; left to busy_timeout,
    /// waiting writers sleep in growing steps (up to 100 ms) and a burst of writes crawls.
    /// busy_timeout still covers a writer in another process (the `juke` command).
    private var writing = false
    private var writers: [CheckedContinuation<Void, Never>] = []
    /// SQLite calls block their thread (a writer waiting on busy_timeout sleeps in it). With
    /// a shared pool, waiting connections could take every thread and leave the one holding
    /// the lock none to finish on: a deadlock until the timeout. A pool of our own with one
    /// thread more than connections always leaves the lock holder a thread.
    private let threadPool: NIOThreadPool
    /// Checkpoints (copying the write-ahead log into the database file, and its fsync) run
    /// beside the writer, not inside it. Left to SQLite, the commit that crosses the log's
    /// limit checkpoints before it returns, while every other write waits for the lock: in
    /// a room of ten thousand answering, that was the answers' slowest moments.
    private var commitsSinceCheckpoint = 0
    private var checkpointing: Task<Void, Never>?
    /// Background checkpoints done (read by tests).
    private(set) var checkpointsRun = 0
    static let commitsPerCheckpoint = 64
    /// busy_timeout, in milliseconds.
    private let busyTimeout: Int

    public init(path: String?, maxConnections: Int = 4, connectionWait: Duration = DatabaseFactory.defaultConnectionWait, logger: Logger) {
        self.storage = path.map { .file(path: $0) } ?? .memory
        // An in-memory database exists per connection: it must have exactly one.
        self.maxConnections = path == nil ? 1 : maxConnections
        self.logger = logger
        let (seconds, attoseconds) = connectionWait.components
        self.busyTimeout = max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
        self.threadPool = NIOThreadPool(numberOfThreads: self.maxConnections + 1)
        self.threadPool.start()
    }

    private func checkout() async throws -> SQLiteConnection {
        if isShutDown { throw StorageError.closed }
        if let connection = idle.popLast() { return connection }
        if open < maxConnections {
            open += 1
            do {
                return try await openConnection()
            } catch {
                open -= 1
                throw error
            }
        }
        return try await withCheckedThrowingContinuation { waiters.append($0) }
    }

    private func openConnection() async throws -> SQLiteConnection {
        let connection = try await SQLiteConnection.open(
            storage: storage, threadPool: threadPool, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
        let sql = connection.sql()
        if case .file = storage {
            try await sql.raw("PRAGMA journal_mode=WAL").run()
            try await sql.raw("PRAGMA synchronous=NORMAL").run()
            // Only a backstop (16 MB of log): `checkpointSoon` keeps the log short.
            try await sql.raw("PRAGMA wal_autocheckpoint=4000").run()
        }
        try await sql.raw(SQLQueryString("PRAGMA busy_timeout=\(unsafeRaw: String(busyTimeout))")).run()
        try await sql.raw("PRAGMA foreign_keys=ON").run()
        return connection
    }

    /// A connection that may still be inside a transaction (its ROLLBACK failed) never goes
    /// back to the pool: every later BEGIN on it would fail with "cannot start a transaction
    /// within a transaction", for good. It is closed, and whoever waits gets a new one.
    private func discard(_ connection: SQLiteConnection) async {
        await Task { try? await connection.close() }.value
        open -= 1
        guard !waiters.isEmpty, !isShutDown else { return }
        let waiter = waiters.removeFirst()
        open += 1
        do {
            waiter.resume(returning: try await openConnection())
        } catch {
            open -= 1
            waiter.resume(throwing: error)
        }
    }

    private func checkin(_ connection: SQLiteConnection) async {
        if isShutDown {
            // Returned after shutdown: closed now, since nobody will take it again.
            await Task { try? await connection.close() }.value
            return
        }
        if !waiters.isEmpty {
            waiters.removeFirst().resume(returning: connection)
        } else {
            idle.append(connection)
        }
    }

    public nonisolated func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let connection = try await checkout()
        do {
            let result = try await body(connection.sql())
            await checkin(connection)
            return result
        } catch {
            await checkin(connection)
            throw Self.storageError(error)
        }
    }

    /// SQLITE_BUSY: the lock another process holds outlasted busy_timeout, the database's wait.
    private static func storageError(_ error: any Error) -> any Error {
        guard let error = error as? SQLiteError, error.reason == .busy || error.reason == .busyTimeout else { return error }
        return StorageError.noConnection
    }

    public nonisolated func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        // IMMEDIATE takes the write lock up front, so two writers queue on busy_timeout
        // instead of one failing with SQLITE_BUSY when it upgrades a read lock.
        await beginWriting()
        do {
            let result = try await inTransaction(body)
            await endWriting()
            return result
        } catch {
            await endWriting()
            throw Self.storageError(error)
        }
    }

    /// BEGIN IMMEDIATE, `body`, COMMIT on one connection; ROLLBACK when either throws. The
    /// ending statements are never cancelled (`uncancelled`); a connection whose ROLLBACK
    /// fails all the same is closed rather than handed out inside its transaction.
    private nonisolated func inTransaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let connection = try await checkout()
        let db = connection.sql()
        do {
            try await db.raw("BEGIN IMMEDIATE").run()
        } catch {
            await checkin(connection)
            throw error
        }
        let outcome: Result<T, any Error>
        do {
            let result = try await body(db)
            try await uncancelled { try await db.raw("COMMIT").run() }
            outcome = .success(result)
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let result):
            await checkin(connection)
            return result
        case .failure(let error):
            do {
                try await uncancelled { try await db.raw("ROLLBACK").run() }
                await checkin(connection)
            } catch let rollbackError {
                logger.error(
                    "SQLite ROLLBACK failed: the connection is closed", metadata: ["error": "\(rollbackError)", "cause": "\(error)"])
                await discard(connection)
            }
            throw error
        }
    }

    private func beginWriting() async {
        if !writing {
            writing = true
            return
        }
        await withCheckedContinuation { writers.append($0) }
    }

    private func endWriting() {
        if writers.isEmpty {
            writing = false
        } else {
            writers.removeFirst().resume()  // the turn passes on; `writing` stays true
        }
        checkpointSoon()
    }

    /// Every `commitsPerCheckpoint` commits, a passive checkpoint on a connection of its own:
    /// it copies what the log holds without taking the write lock, so writers go on.
    private func checkpointSoon() {
        guard case .file = storage, !isShutDown else { return }
        commitsSinceCheckpoint += 1
        guard commitsSinceCheckpoint >= Self.commitsPerCheckpoint, checkpointing == nil else { return }
        commitsSinceCheckpoint = 0
        checkpointing = Task { await self.checkpoint() }
    }

    /// Waits for a background checkpoint under way, if any (for tests).
    func checkpointDone() async { await checkpointing?.value }

    private func checkpoint() async {
        do {
            try await withConnection { db in try await db.raw("PRAGMA wal_checkpoint(PASSIVE)").run() }
            checkpointsRun += 1
        } catch {
            // The next one catches up; SQLite's own limit is the backstop.
            logger.debug("SQLite checkpoint not done", metadata: ["error": "\(error)"])
        }
        checkpointing = nil
    }

    /// One server per SQLite file: there is nobody else to tell.
    public nonisolated func notify(channel: String, payload: String) async throws {}

    public nonisolated func listen(
        channel: String, listening: @escaping @Sendable () async -> Void, _ receive: @escaping @Sendable (String) async -> Void
    ) async throws {
        await listening()
        while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
    }

    /// Closes the pool. Safe to call twice (the application and a test may both): the
    /// actor is re-entered at each await, so each list is taken before the await after it.
    public func shutdown() async {
        guard !isShutDown else { return }
        isShutDown = true
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume(throwing: StorageError.closed) }
        // A checkpoint under way ends first: one waiting for a connection was just told the
        // pool is closed, and one holding a connection closes it as it hands it back.
        await checkpointing?.value
        let closing = idle
        idle = []
        // In a task of its own: shutdown often runs in a cancelled task (a service group
        // torn down), where closing would give up at once and leave the handle open.
        let pool = threadPool
        await Task {
            for connection in closing { try? await connection.close() }
            try? await pool.shutdownGracefully()
        }.value
    }
}
