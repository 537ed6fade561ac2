import DualPlayer
import DualPlayerServer
import Foundation
import JukeTestSupport
import SQLKit
import Storage
import Testing

/// Dual Player's tenth migration: rows written with a server's absolute paths (before media
/// storage) name their files by key afterwards, on both databases.
@Suite(.timeLimit(.minutes(3)))
struct DualPlayerStorageKeyMigrationTests {
    @Test(arguments: TestBackend.available)
    func absolutePathsBecomeKeys(backend: TestBackend) async throws {
        let upToNine = Schema(module: Schema.dualPlayer.module, migrations: Schema.dualPlayer.migrations.filter { $0.version <= 9 })
        try await TestDatabase.with(backend, schemas: [upToNine]) { db in
            try await db.database.withConnection { sql in
                try await sql.raw(
                    "INSERT INTO users (id, username, username_key, display_name, password_hash, is_admin, created_at) VALUES ('u1', 'ann', 'ann', 'Ann', 'x', 0, 0)"
                ).run()
                let insertBook = { (id: String, path: String, cover: String?) in
                    try await sql.raw(
                        """
                        INSERT INTO dual_books (id, owner_id, origin, title, path, format, duration, chapter_source, chapters, added_at, cover_path)
                        VALUES (\(bind: id), 'u1', 'upload', 'T', \(bind: path), 'mp3', 1, 'none', '[]', 0, \(bind: cover))
                        """
                    ).run()
                }
                try await insertBook("b1", "/srv/juke/data/dual/books/0a1b.mp3", nil)
                try await insertBook("b2", "/home/dual/books/data/dual/books/librivox-9/book.mp3", "/home/dual/books/data/dual/books/librivox-9/cover.jpg")
                try await insertBook("b3", "/somewhere/else.mp3", nil)
                try await sql.raw(
                    """
                    INSERT INTO dual_songs (id, owner_id, title, path, format, duration, has_artwork, added_at)
                    VALUES ('s1', 'u1', 'S', '/d/dual/songs/x.flac', 'flac', 1, false, 0)
                    """
                ).run()
                try await sql.raw(
                    """
                    INSERT INTO dual_podcasts (id, feed_url, title, schedule, next_fetch, added_at) VALUES ('p1', 'https://x.test/f', 'P', '{}', 0, 0)
                    """
                ).run()
                let download = #"{"status":"ready","bytes":5,"total":5,"path":"\/d\/dual\/podcasts\/p1\/e1.mp3"}"#
                try await sql.raw(
                    """
                    INSERT INTO dual_episodes (id, podcast_id, guid, title, details, download, seen_at)
                    VALUES ('e1', 'p1', 'g', 'E', '{}', \(bind: download), 0)
                    """
                ).run()
                try await sql.raw(
                    "INSERT INTO dual_articles (id, owner_id, title, format, content, words, added_at) VALUES ('a1', 'u1', 'A', 'web', '{}', 1, 0)"
                ).run()
                let speech = #"{"status":"ready","done":1,"total":1,"path":"/d/dual/articles/a1.mp3","duration":1,"chapters":[],"cues":[]}"#
                try await sql.raw("INSERT INTO dual_article_speech (article_id, data) VALUES ('a1', \(bind: speech))").run()
            }

            try await Migrator.migrate(db.database, schemas: [.platform, .dualPlayer], logger: TestDatabase.logger)

            try await db.database.withConnection { sql in
                func text(_ query: SQLQueryString, _ column: String) async throws -> String? {
                    try await sql.raw(query).first()?.decode(column: column, as: String?.self)
                }
                #expect(try await text("SELECT path FROM dual_books WHERE id = 'b1'", "path") == "dual/books/0a1b.mp3")
                #expect(try await text("SELECT path FROM dual_books WHERE id = 'b2'", "path") == "dual/books/librivox-9/book.mp3")
                #expect(try await text("SELECT cover_path FROM dual_books WHERE id = 'b2'", "cover_path") == "dual/books/librivox-9/cover.jpg")
                #expect(try await text("SELECT path FROM dual_books WHERE id = 'b3'", "path") == "/somewhere/else.mp3", "no key: left as it was")
                #expect(try await text("SELECT path FROM dual_songs WHERE id = 's1'", "path") == "dual/songs/x.flac")
                let download = try #require(try await text("SELECT download FROM dual_episodes WHERE id = 'e1'", "download"))
                let decodedDownload = try JSONDecoder().decode(EpisodeDownload.self, from: Data(download.utf8))
                #expect(decodedDownload.file == "dual/podcasts/p1/e1.mp3" && decodedDownload.bytes == 5)
                let speech = try #require(try await text("SELECT data FROM dual_article_speech WHERE article_id = 'a1'", "data"))
                #expect(try JSONDecoder().decode(ArticleSpeech.self, from: Data(speech.utf8)).file == "dual/articles/a1.mp3")
            }
            #expect(try await Migrator.appliedVersions(db.database, module: Schema.dualPlayer.module).contains(10), "applied, with those after it")
        }
    }
}
