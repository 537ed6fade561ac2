extension APIError {
    /// No database connection came free within the database's wait (every one busy, or
    /// PostgreSQL refusing new ones): a moment later it usually has one, so 503 with
    /// Retry-After rather than a 500, or a request that waits for good.
    static let noDatabaseConnection = APIError(
        status: .serviceUnavailable, code: "database_busy",
        message: "The database has no free connection for this request just now; try again in a moment.", retryAfter: 5)
}
