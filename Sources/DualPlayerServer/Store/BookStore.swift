import DualPlayer
import Foundation
import JukeCore
import SQLKit
import Storage

/// The books on Dual Player's shelf.
public struct BookStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    /// Shelves `book`, with the SHA-256 of an uploaded file's bytes (to find it again when the
    /// same file comes twice). A second demo (another server shelved it first) is left out.
    public func add(_ book: Book, sha256: String? = nil) async throws {
        let chapters = try JSONColumn.encode(book.chapters)
        let download = try book.download.map(JSONColumn.encode)
        let unlessTaken = SQLRaw(book.origin == .demo ? "ON CONFLICT DO NOTHING" : "")
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO dual_books (id, owner_id, origin, title, author, path, format, duration, chapter_source, chapters, added_at,
                                        status, download, cover_path, source_id, sha256)
                VALUES (\(bind: book.id.description), \(bind: book.owner?.description), \(bind: book.origin.rawValue), \(bind: book.title),
                        \(bind: book.author), \(bind: book.file), \(bind: book.format), \(bind: book.duration), \(bind: book.chapterSource),
                        \(bind: chapters), \(bind: book.addedAt.timeIntervalSince1970), \(bind: book.status.rawValue), \(bind: download),
                        \(bind: book.coverFile), \(bind: book.sourceID), \(bind: sha256))
                \(unlessTaken)
                """
            ).run()
        }
    }

    /// Writes what a download changes: its status and progress, and once done the file, its
    /// length and its chapters.
    public func update(_ book: Book) async throws {
        let chapters = try JSONColumn.encode(book.chapters)
        let download = try book.download.map(JSONColumn.encode)
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE dual_books SET path = \(bind: book.file), format = \(bind: book.format), duration = \(bind: book.duration),
                    chapter_source = \(bind: book.chapterSource), chapters = \(bind: chapters), status = \(bind: book.status.rawValue),
                    download = \(bind: download), cover_path = \(bind: book.coverFile)
                WHERE id = \(bind: book.id.description)
                """
            ).run()
        }
    }

    /// A download's progress, written only while the book is still downloading (a late write
    /// never turns a finished book back).
    public func updateProgress(_ id: BookID, _ download: Book.Download) async throws {
        let json = try JSONColumn.encode(download)
        try await database.withConnection { db in
            try await db.raw(
                "UPDATE dual_books SET download = \(bind: json) WHERE id = \(bind: id.description) AND status = 'downloading'"
            ).run()
        }
    }

    /// `owner`'s copy of a book from elsewhere (LibriVox's id), if they have one.
    public func book(sourceID: String, owner: UserID) async throws -> Book? {
        try await database.withConnection { db in
            try await db.raw(
                "SELECT * FROM dual_books WHERE source_id = \(bind: sourceID) AND owner_id = \(bind: owner.description) LIMIT 1"
            ).first().map(Self.book)
        }
    }

    /// The book uploaded from the file whose bytes hash to `sha256` on `owner`'s shelf: their own
    /// or everyone's (which is on theirs too); for nil, on everyone's.
    public func book(sha256: String, onShelfOf owner: UserID?) async throws -> Book? {
        try await database.withConnection { db in
            guard let owner else {
                return try await db.raw("SELECT * FROM dual_books WHERE sha256 = \(bind: sha256) AND owner_id IS NULL ORDER BY added_at LIMIT 1")
                    .first().map(Self.book)
            }
            return try await db.raw(
                """
                SELECT * FROM dual_books WHERE sha256 = \(bind: sha256) AND (owner_id IS NULL OR owner_id = \(bind: owner.description))
                ORDER BY added_at LIMIT 1
                """
            ).first().map(Self.book)
        }
    }

    /// Books whose download has not finished (to carry on after a restart).
    public func downloading() async throws -> [Book] {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM dual_books WHERE status = 'downloading'").all().map(Self.book)
        }
    }

    /// The books `user` sees: everyone's and their own, newest first.
    public func books(visibleTo user: UserID) async throws -> [Book] {
        try await database.withConnection { db in
            try await db.raw(
                "SELECT * FROM dual_books WHERE owner_id IS NULL OR owner_id = \(bind: user.description) ORDER BY added_at DESC, title"
            ).all().map(Self.book)
        }
    }

    public func book(_ id: BookID) async throws -> Book? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM dual_books WHERE id = \(bind: id.description)").first().map(Self.book)
        }
    }

    /// The first book of this origin, if the shelf has one (the demo, shelved once per database).
    public func first(origin: Book.Origin) async throws -> Book? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM dual_books WHERE origin = \(bind: origin.rawValue) ORDER BY added_at LIMIT 1").first().map(Self.book)
        }
    }

    public func delete(_ id: BookID) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM dual_books WHERE id = \(bind: id.description)").run()
        }
    }

    static func book(_ row: any SQLRow) throws -> Book {
        Book(
            id: try decodeID(row, "id"),
            owner: try row.decode(column: "owner_id", as: String?.self).flatMap { UserID($0) },
            origin: Book.Origin(rawValue: try row.decode(column: "origin", as: String.self)) ?? .upload,
            title: try row.decode(column: "title", as: String.self), author: try row.decode(column: "author", as: String?.self),
            file: try row.decode(column: "path", as: String.self), format: try row.decode(column: "format", as: String.self),
            duration: try row.decode(column: "duration", as: Double.self), chapterSource: try row.decode(column: "chapter_source", as: String.self),
            chapters: try JSONColumn.decode([Book.Chapter].self, try row.decode(column: "chapters", as: String.self)),
            addedAt: Date(timeIntervalSince1970: try row.decode(column: "added_at", as: Double.self)),
            status: Book.Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .ready,
            download: try row.decode(column: "download", as: String?.self).map { try JSONColumn.decode(Book.Download.self, $0) },
            coverFile: try row.decode(column: "cover_path", as: String?.self), sourceID: try row.decode(column: "source_id", as: String?.self))
    }
}
