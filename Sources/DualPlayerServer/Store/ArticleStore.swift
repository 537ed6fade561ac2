import Articles
import DualPlayer
import Foundation
import JukeCore
import SQLKit
import Storage

/// An account's articles, where its reading stopped, and their server-spoken audio.
public struct ArticleStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    public struct Stored: Sendable {
        public var id: ArticleID
        public var owner: UserID
        public var sourceURL: String?
        public var format: String
        public var article: Article
        public var addedAt: Date
    }

    public func add(_ stored: Stored) async throws {
        let content = try JSONColumn.encode(stored.article)
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO dual_articles (id, owner_id, title, author, source_url, format, content, words, added_at)
                VALUES (\(bind: stored.id.description), \(bind: stored.owner.description), \(bind: stored.article.title), \(bind: stored.article.author),
                        \(bind: stored.sourceURL), \(bind: stored.format), \(bind: content), \(bind: stored.article.wordCount),
                        \(bind: stored.addedAt.timeIntervalSince1970))
                """
            ).run()
        }
    }

    public func article(_ id: ArticleID) async throws -> Stored? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM dual_articles WHERE id = \(bind: id.description)").first().map(Self.stored)
        }
    }

    /// `owner`'s articles, newest first.
    public func articles(of owner: UserID) async throws -> [Stored] {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM dual_articles WHERE owner_id = \(bind: owner.description) ORDER BY added_at DESC, title").all().map(Self.stored)
        }
    }

    public func delete(_ id: ArticleID) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM dual_articles WHERE id = \(bind: id.description)").run()
        }
    }

    /// Saves a position unless a newer one is stored; returns the one kept.
    public func save(_ position: ArticlePosition, of user: UserID, in article: ArticleID) async throws -> ArticlePosition {
        try await database.transaction { db in
            try await db.raw(
                """
                INSERT INTO dual_article_positions (user_id, article_id, chapter, word, updated_at)
                VALUES (\(bind: user.description), \(bind: article.description), \(bind: position.chapter), \(bind: position.word), \(bind: position.updatedAt))
                ON CONFLICT (user_id, article_id) DO UPDATE SET chapter = excluded.chapter, word = excluded.word, updated_at = excluded.updated_at
                WHERE excluded.updated_at > dual_article_positions.updated_at
                """
            ).run()
            return try await Self.position(db, user: user, article: article) ?? position
        }
    }

    public func position(of user: UserID, in article: ArticleID) async throws -> ArticlePosition? {
        try await database.withConnection { db in try await Self.position(db, user: user, article: article) }
    }

    static func position(_ db: any SQLDatabase, user: UserID, article: ArticleID) async throws -> ArticlePosition? {
        try await db.raw(
            "SELECT chapter, word, updated_at FROM dual_article_positions WHERE user_id = \(bind: user.description) AND article_id = \(bind: article.description)"
        ).first().map {
            ArticlePosition(
                chapter: try $0.decode(column: "chapter", as: Int.self), word: try $0.decode(column: "word", as: Int.self),
                updatedAt: try $0.decode(column: "updated_at", as: Int64.self))
        }
    }

    public func speech(of article: ArticleID) async throws -> ArticleSpeech? {
        try await database.withConnection { db in
            try await db.raw("SELECT data FROM dual_article_speech WHERE article_id = \(bind: article.description)").first().map {
                try JSONColumn.decode(ArticleSpeech.self, try $0.decode(column: "data", as: String.self))
            }
        }
    }

    public func save(_ speech: ArticleSpeech, of article: ArticleID) async throws {
        let data = try JSONColumn.encode(speech)
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO dual_article_speech (article_id, data) VALUES (\(bind: article.description), \(bind: data))
                ON CONFLICT (article_id) DO UPDATE SET data = excluded.data
                """
            ).run()
        }
    }

    static func stored(_ row: any SQLRow) throws -> Stored {
        Stored(
            id: try decodeID(row, "id"), owner: try decodeID(row, "owner_id"), sourceURL: try row.decode(column: "source_url", as: String?.self),
            format: try row.decode(column: "format", as: String.self),
            article: try JSONColumn.decode(Article.self, try row.decode(column: "content", as: String.self)),
            addedAt: Date(timeIntervalSince1970: try row.decode(column: "added_at", as: Double.self)))
    }
}
