public import Foundation

/// Where the data lives: an SQLite file (the default, in the data folder) or a PostgreSQL
/// server given by URL, as in `--database postgres://juke:secret@db.local:5432/juke`.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case sqliteInMemory
    case postgres(PostgresSettings)

    public struct PostgresSettings: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var username: String
        public var password: String?
        public var database: String
        public var requireTLS: Bool
    }

    public struct InvalidLocation: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses a `--database` value. With none given, the SQLite file in `dataDirectory`.
    public static func parse(_ value: String?, dataDirectory: String) throws(InvalidLocation) -> DatabaseLocation {
        guard let value, !value.isEmpty else {
            return .sqlite(path: URL(fileURLWithPath: dataDirectory).appendingPathComponent("juke.sqlite").path)
        }
        if value == "sqlite::memory:" || value == ":memory:" { return .sqliteInMemory }
        if value.hasPrefix("sqlite://") {
            let path = String(value.dropFirst("sqlite://".count))
            guard !path.isEmpty else { throw InvalidLocation(description: "sqlite:// needs a file path, as in sqlite:///var/lib/juke/juke.sqlite") }
            return .sqlite(path: path)
        }
        if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
            guard let url = URLComponents(string: value), let host = url.host, !host.isEmpty else {
                throw InvalidLocation(description: "cannot read the PostgreSQL URL; expected postgres://user:password@host:5432/database")
            }
            let database = String(url.path.drop(while: { $0 == "/" }))
            guard !database.isEmpty else { throw InvalidLocation(description: "the PostgreSQL URL names no database (postgres://host:5432/DATABASE)") }
            let sslmode = url.queryItems?.first { $0.name == "sslmode" }?.value
            return .postgres(
                PostgresSettings(
                    host: host, port: url.port ?? 5432, username: url.user ?? "postgres",
                    password: url.password?.removingPercentEncoding, database: database,
                    requireTLS: sslmode == "require" || sslmode == "verify-full"
                ))
        }
        if value.hasSuffix(".sqlite") || value.hasSuffix(".db") || value.hasPrefix("/") { return .sqlite(path: value) }
        throw InvalidLocation(description: "unknown database '\(value)'; use sqlite:///path/file.sqlite or postgres://user:pass@host/db")
    }

    /// The location with any password hidden, for logs.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite://\(path)"
        case .sqliteInMemory: "sqlite::memory:"
        case .postgres(let s): "postgres://\(s.username)@\(s.host):\(s.port)/\(s.database)"
        }
    }
}
