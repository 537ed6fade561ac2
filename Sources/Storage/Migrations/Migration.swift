public import SQLKit

/// One versioned, forward-only schema change. Statements are written once in SQL that
/// both SQLite and PostgreSQL accept; `blob` stands for the binary type's spelling.
///
/// A change SQL alone cannot say the same way on both (rewriting values inside JSON, say)
/// is code instead (`rewrite`): it runs in the same transaction after the statements, and
/// counts as applied only with them.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let statements: @Sendable (_ blob: String) -> [String]
    public let rewrite: (@Sendable (_ db: any SQLDatabase) async throws -> Void)?

    public init(version: Int, name: String, statements: @escaping @Sendable (_ blob: String) -> [String]) {
        self.version = version
        self.name = name
        self.statements = statements
        self.rewrite = nil
    }

    /// A migration that rewrites rows in code (read, change, write back), in its transaction.
    public init(version: Int, name: String, rewrite: @escaping @Sendable (_ db: any SQLDatabase) async throws -> Void) {
        self.version = version
        self.name = name
        self.statements = { _ in [] }
        self.rewrite = rewrite
    }
}
