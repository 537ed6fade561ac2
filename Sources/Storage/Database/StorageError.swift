/// Errors the stores report in their own words, so routes can map them to responses.
public enum StorageError: Error, Equatable, CustomStringConvertible {
    case closed
    case conflict(String)
    case notFound(String)
    case migrationFailed(version: Int, reason: String)
    /// A call this database or this change cannot take (a programming error).
    case unsupported(String)
    /// No connection came free within the database's wait (every one busy, or the server
    /// refusing new ones): worth trying again in a moment, not a failure of the call.
    case noConnection

    public var description: String {
        switch self {
        case .closed: "the database is closed"
        case .conflict(let what): "already exists: \(what)"
        case .notFound(let what): "not found: \(what)"
        case .migrationFailed(let version, let reason): "migration \(version) failed: \(reason)"
        case .unsupported(let what): "not supported: \(what)"
        case .noConnection: "no database connection came free in time"
        }
    }
}
