import Foundation
import MediaStorage
import SQLKit

/// Dual Player's tenth migration: every absolute path a server wrote into its tables becomes
/// a media storage key, on SQLite and PostgreSQL alike (so it is code, not SQL: the two
/// spell string searches differently and the JSON columns need parsing).
///
/// A path in none of Dual Player's folders is left as it was: it names no key, and the file
/// is answered as missing (as a file deleted by hand was before).
enum StorageKeyMigration {
    /// Where Dual Player kept files under a data folder.
    static let roots = ["dual/books", "dual/songs", "dual/podcasts", "dual/articles", "dual/demo"]

    static func key(_ path: String) -> String {
        guard path.hasPrefix("/") || path.hasPrefix("."), let key = StorageKey(legacyPath: path, roots: roots) else { return path }
        return key.rawValue
    }

    static func run(on db: any SQLDatabase) async throws {
        for row in try await db.raw("SELECT id, path, cover_path FROM dual_books").all() {
            let id = try row.decode(column: "id", as: String.self)
            let path = try row.decode(column: "path", as: String.self)
            let cover = try row.decode(column: "cover_path", as: String?.self)
            try await db.raw("UPDATE dual_books SET path = \(bind: key(path)), cover_path = \(bind: cover.map(key)) WHERE id = \(bind: id)").run()
        }
        for row in try await db.raw("SELECT id, path FROM dual_songs").all() {
            let id = try row.decode(column: "id", as: String.self)
            let path = try row.decode(column: "path", as: String.self)
            try await db.raw("UPDATE dual_songs SET path = \(bind: key(path)) WHERE id = \(bind: id)").run()
        }
        for row in try await db.raw("SELECT id, download FROM dual_episodes WHERE download IS NOT NULL").all() {
            let id = try row.decode(column: "id", as: String.self)
            guard let json = try row.decode(column: "download", as: String?.self), let renamed = try renamingPath(json) else { continue }
            try await db.raw("UPDATE dual_episodes SET download = \(bind: renamed) WHERE id = \(bind: id)").run()
        }
        for row in try await db.raw("SELECT article_id, data FROM dual_article_speech").all() {
            let id = try row.decode(column: "article_id", as: String.self)
            let json = try row.decode(column: "data", as: String.self)
            guard let renamed = try renamingPath(json) else { continue }
            try await db.raw("UPDATE dual_article_speech SET data = \(bind: renamed) WHERE article_id = \(bind: id)").run()
        }
    }

    /// The JSON object with its "path" (an absolute path) as "file" (a key); nil when it has none.
    static func renamingPath(_ json: String) throws -> String? {
        guard var object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], let path = object["path"] as? String else {
            return nil
        }
        object["path"] = nil
        object["file"] = key(path)
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
