import Foundation
public import Logging

/// Opens the database a location names and brings its schema up to date.
public enum DatabaseFactory {
    /// How long a call waits for the database before `StorageError.noConnection`: for
    /// PostgreSQL, for a connection from the pool; for SQLite, for the lock another process
    /// (the `juke` command) holds (its busy_timeout).
    public static let defaultConnectionWait: Duration = .seconds(10)

    public static func open(_ location: DatabaseLocation, connectionWait: Duration = defaultConnectionWait, logger: Logger) throws -> any JukeDatabase {
        switch location {
        case .sqlite(let path):
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return SQLiteDatabase(path: path, connectionWait: connectionWait, logger: logger)
        case .sqliteInMemory:
            return SQLiteDatabase(path: nil, connectionWait: connectionWait, logger: logger)
        case .postgres(let settings):
            return try PostgresDatabase(settings: settings, connectionWait: connectionWait, logger: logger)
        }
    }
}
