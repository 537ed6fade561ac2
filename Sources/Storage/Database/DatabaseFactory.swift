import Foundation
public import Logging

/// Opens the database a location names and brings its schema up to date.
public enum DatabaseFactory {
    public static func open(_ location: DatabaseLocation, logger: Logger) throws -> any JukeDatabase {
        switch location {
        case .sqlite(let path):
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return SQLiteDatabase(path: path, logger: logger)
        case .sqliteInMemory:
            return SQLiteDatabase(path: nil, logger: logger)
        case .postgres(let settings):
            return try PostgresDatabase(settings: settings, logger: logger)
        }
    }
}
