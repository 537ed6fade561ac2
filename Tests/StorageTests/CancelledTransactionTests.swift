import Foundation
import JukeTestSupport
import SQLKit
import Testing

@testable import Storage

/// A request whose client goes away mid-transaction still ends its transaction: SQLiteNIO
/// refuses statements in a cancelled task, and the connection used to go back to the pool
/// inside its transaction, where every later BEGIN failed ("cannot start a transaction within
/// a transaction") until the server restarted: a browser run saw every Back2Back and
/// Dual Player write fail after one closed page.
@Suite(.timeLimit(.minutes(5))) struct CancelledTransactionTests {
    @Test(arguments: TestBackend.available)
    func aTransactionWhoseTaskIsCancelledAfterItsWorkStillCommits(_ backend: TestBackend) async throws {
        let test = try await TestDatabase.make(backend)
        let database = test.database
        let table = "notes_\(UUID().uuidString.prefix(8).lowercased())"
        try await database.withConnection { db in try await db.raw("CREATE TABLE \(unsafeRaw: table) (n INTEGER)").run() }

        // The work is done, then the task is cancelled (the client went away) before COMMIT.
        let cancelled = Task {
            try await database.transaction { db in
                try await db.raw("INSERT INTO \(unsafeRaw: table) VALUES (1)").run()
                withUnsafeCurrentTask { $0?.cancel() }
            }
        }
        _ = await cancelled.result

        // Every connection of the pool takes a new transaction.
        for n in 2...9 {
            try await database.transaction { db in try await db.raw("INSERT INTO \(unsafeRaw: table) VALUES (\(bind: n))").run() }
        }
        let count = try await database.withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first()?.decode(column: "n", as: Int.self)
        }
        #expect(count == 9)
        await test.cleanup()
    }

    @Test(arguments: TestBackend.available)
    func aCancelledTransactionThatFailsIsRolledBack(_ backend: TestBackend) async throws {
        let test = try await TestDatabase.make(backend)
        let database = test.database
        let table = "notes_\(UUID().uuidString.prefix(8).lowercased())"
        try await database.withConnection { db in try await db.raw("CREATE TABLE \(unsafeRaw: table) (n INTEGER)").run() }

        // Cancelled in the middle: the next statement is refused and the transaction rolled back.
        let cancelled = Task {
            try await database.transaction { db in
                try await db.raw("INSERT INTO \(unsafeRaw: table) VALUES (1)").run()
                withUnsafeCurrentTask { $0?.cancel() }
                try Task.checkCancellation()
                try await db.raw("INSERT INTO \(unsafeRaw: table) VALUES (2)").run()
            }
        }
        let outcome = await cancelled.result
        #expect(throws: CancellationError.self) { try outcome.get() }

        for n in 3...9 {
            try await database.transaction { db in try await db.raw("INSERT INTO \(unsafeRaw: table) VALUES (\(bind: n))").run() }
        }
        let rows = try await database.withConnection { db in
            try await db.raw("SELECT n FROM \(unsafeRaw: table) ORDER BY n").all().map { try $0.decode(column: "n", as: Int.self) }
        }
        #expect(rows == Array(3...9))
        await test.cleanup()
    }
}
