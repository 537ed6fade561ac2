/// One versioned, forward-only schema change. Statements are written once in SQL that
/// both SQLite and PostgreSQL accept; `blob` stands for the binary type's spelling.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let statements: @Sendable (_ blob: String) -> [String]

    public init(version: Int, name: String, statements: @escaping @Sendable (_ blob: String) -> [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }
}
