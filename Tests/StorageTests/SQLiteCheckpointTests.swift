import Foundation
import JukeTestSupport
import Logging
import SQLKit
import Testing

@testable import Storage

/// The write-ahead log is copied into the database beside the writer, every so many
/// commits, rather than by the commit that crosses SQLite's limit while others wait.
@Suite(.timeLimit(.minutes(5))) struct SQLiteCheckpointTests {
    @Test func commitsAreCheckpointedInTheBackgroundAndNothingIsLost() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-checkpoint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = SQLiteDatabase(path: folder.appendingPathComponent("juke.sqlite").path, logger: TestDatabase.logger)
        try await database.withConnection { db in try await db.raw("CREATE TABLE notes (n INTEGER)").run() }
        let commits = SQLiteDatabase.commitsPerCheckpoint * 2 + 5
        for n in 1..<SQLiteDatabase.commitsPerCheckpoint {
            try await database.transaction { db in try await db.raw("INSERT INTO notes VALUES (\(bind: n))").run() }
        }
        #expect(await database.checkpointsRun == 0)
        for n in SQLiteDatabase.commitsPerCheckpoint...commits {
            try await database.transaction { db in try await db.raw("INSERT INTO notes VALUES (\(bind: n))").run() }
            await database.checkpointDone()
        }
        #expect(await database.checkpointsRun == 2)
        // The log was copied in: it holds nothing the database file lacks.
        let busy = try await database.withConnection { db in
            try await db.raw("PRAGMA wal_checkpoint(PASSIVE)").first()?.decode(column: "busy", as: Int.self)
        }
        #expect(busy == 0)
        let count = try await database.withConnection { db in try await db.raw("SELECT COUNT(*) AS n FROM notes").first()?.decode(column: "n", as: Int.self) }
        #expect(count == commits)
        await database.shutdown()
        // Reopened: every commit is there.
        let reopened = SQLiteDatabase(path: folder.appendingPathComponent("juke.sqlite").path, logger: TestDatabase.logger)
        let again = try await reopened.withConnection { db in try await db.raw("SELECT COUNT(*) AS n FROM notes").first()?.decode(column: "n", as: Int.self) }
        #expect(again == commits)
        await reopened.shutdown()
    }
}
