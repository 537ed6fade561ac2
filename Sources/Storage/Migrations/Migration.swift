/// One versioned, forward-only schema change. Statements are written once in SQL that
/// both SQLite and PostgreSQL accept; `blob` stands for the binary type's spelling.
struct Migration: Sendable {
    let version: Int
    let name: String
    let statements: @Sendable (_ blob: String) -> [String]
}
