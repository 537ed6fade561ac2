/// Runs `work` in a task of its own, so that the caller's cancellation never reaches it.
///
/// For the statements that end a transaction: SQLiteNIO refuses a statement in a cancelled
/// task before it runs (NIOThreadPool's `runIfActive`), so a request whose client went away
/// mid-transaction had its COMMIT refused and then its ROLLBACK too, and its connection went
/// back to the pool still inside the transaction: every later BEGIN on it failed.
func uncancelled<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
    try await Task { try await work() }.value
}
