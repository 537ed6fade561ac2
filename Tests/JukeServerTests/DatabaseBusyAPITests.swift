import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JukePlatform
import JukeTestSupport
import LiveUpdates
import SQLKit
import Storage
import Synchronization
import Testing

@testable import JukeServer

/// A request that gets no database connection within the server's wait (the pool's
/// `StorageError.noConnection`, tested against a full PostgreSQL in StorageTests) is answered
/// 503 `database_busy` with Retry-After, on every app's routes, and served again once the
/// database is.
@Suite(.timeLimit(.minutes(2))) struct DatabaseBusyAPITests {
    @Test func aRequestThatGetsNoConnectionIsA503ThatSaysSoAndTheNextIsServed() async throws {
        try await TestDatabase.with(.sqlite, schemas: Juke.schemas) { db in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-app-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let database = FillableDatabase(db.database)
            let services = AppServices(
                configuration: TestApp.configuration(dataDirectory: folder), database: database, clock: .system, timers: SystemLiveClock(),
                logger: TestDatabase.logger)
            let app = try buildApplication(services: services)
            try await app.test(.router) { client in
                let token = try await client.register("ada")
                database.isFull = true
                for path in [
                    "/api/v1/auth/me", "/api/v1/catalog/tracks", "/api/v1/tunetrivia/sessions", "/api/v1/back2back/sessions", "/api/v1/dual/state",
                    "/api/v1/runbeat/profile",
                ] {
                    let r = try await client.json(.get, path, token: token)
                    #expect(r.status == .serviceUnavailable, "\(path): \(r.json)")
                    #expect(r.json["error"] as? String == "database_busy", "\(path)")
                    #expect((r.json["message"] as? String)?.contains("database") == true, "\(path)")
                    #expect(r.headers[.retryAfter] == "5", "\(path)")
                }
                let login = try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"ada","password":"correct horse"}"#)
                #expect(login.status == .serviceUnavailable)
                #expect(login.json["error"] as? String == "database_busy")
                database.isFull = false
                let me = try await client.json(.get, "/api/v1/auth/me", token: token)
                #expect(me.status == .ok)
            }
        }
    }

    /// The wait is a setting (`--database-wait`, seconds), ten seconds when not given.
    @Test func theWaitIsASetting() throws {
        let all = Juke.settings.flatMap { $0.settings }
        func wait(_ arguments: [String]) throws -> Duration {
            try PlatformSettings(try SettingValues.parse(arguments: arguments, environment: [:], settings: all)).configuration().databaseWait
        }
        #expect(try wait([]) == .seconds(10))
        #expect(try wait(["--database-wait", "3"]) == .seconds(3))
        #expect(throws: SettingError.self) { try wait(["--database-wait", "0"]) }
    }

    /// Every operation that reads or writes data says it may answer 503 (all but the clock).
    @Test func everyOperationThatTouchesTheDatabaseDeclares503() throws {
        let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/JukeAPI/openapi.yaml")
        let text = try String(contentsOf: spec, encoding: .utf8)
        let paths = text.components(separatedBy: "\ncomponents:")[0]
        var missing: [String] = []
        // Each operation runs from its method line to the next one.
        let operations = paths.components(separatedBy: .newlines).split(whereSeparator: { line in
            ["    get:", "    put:", "    post:", "    delete:", "    patch:"].contains(line)
        }).dropFirst()
        for operation in operations {
            guard let id = operation.first(where: { $0.hasPrefix("      operationId: ") })?.dropFirst("      operationId: ".count) else { continue }
            if id == "getClock" { continue }
            if !operation.contains(where: { $0.hasPrefix("        \"503\":") }) { missing.append(String(id)) }
        }
        #expect(missing.isEmpty, "no 503 declared: \(missing)")
    }
}

/// The test's database, made full at will: every call then fails as a pool that got no
/// connection in time does.
final class FillableDatabase: JukeDatabase {
    let base: any JukeDatabase
    private let full = Mutex(false)
    var kind: DatabaseKind { base.kind }
    var isFull: Bool {
        get { full.withLock { $0 } }
        set { full.withLock { $0 = newValue } }
    }

    init(_ base: any JukeDatabase) { self.base = base }

    private func check() throws { if isFull { throw StorageError.noConnection } }

    func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try check()
        return try await base.withConnection(body)
    }

    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try check()
        return try await base.transaction(body)
    }

    func shutdown() async { await base.shutdown() }

    func notify(channel: String, payload: String) async throws {
        try check()
        try await base.notify(channel: channel, payload: payload)
    }

    func listen(
        channel: String, listening: @escaping @Sendable () async -> Void, _ receive: @escaping @Sendable (String) async -> Void
    ) async throws {
        try await base.listen(channel: channel, listening: listening, receive)
    }
}
