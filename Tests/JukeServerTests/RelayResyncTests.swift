import Back2Back
import Foundation
import JukeCore
import JukeTestSupport
import LiveUpdates
import Logging
import SQLKit
import Testing

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer

/// Two Juke servers on one PostgreSQL database, and the second server's relay listener loses
/// its connection while the first makes a change: the NOTIFY reaches nobody, yet the watcher
/// on the second server still gets the change, as the listener resyncs once it listens again.
@Suite(.timeLimit(.minutes(5))) struct RelayResyncTests {
    @Test(.enabled(if: TestBackend.postgresAvailable, "needs PostgreSQL: JUKE_TEST_POSTGRES_URL"))
    func aChangeMadeWhileTheListenerReconnectsStillArrives() async throws {
        try await TestDatabase.with(.postgres, schemas: Juke.schemas) { db in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-relay-\(UUID().uuidString)").path
            let one = AppServices(
                configuration: TestApp.configuration(dataDirectory: folder), database: db.database, clock: .system, logger: TestDatabase.logger)
            let two = AppServices(
                configuration: TestApp.configuration(dataDirectory: folder), database: db.database, clock: .system, logger: TestDatabase.logger)
            let host = User(id: UserID(), username: "host", email: nil, displayName: "Host", isAdmin: false, createdAt: Date())
            try await one.users.create(host, passwordHash: "h")

            // The second server's listener, as the application runs it.
            let service = two.back2back
            let listener = service.relay.listener(logger: TestDatabase.logger, resync: { await service.resync() }) {
                await service.remoteChange($0)
            }
            let listening = Task { try await listener.run() }
            defer { listening.cancel() }
            let channel = Back2BackService.relayChannel
            @Sendable func listenerBackend() async throws -> Int? {
                try await db.database.withConnection { sql in
                    try await sql.raw("SELECT pid::bigint AS pid FROM pg_stat_activity WHERE query ILIKE \(bind: "LISTEN%\(channel)%")").first()?
                        .decode(column: "pid", as: Int.self)
                }
            }
            #expect(try await eventually { try await listenerBackend() != nil })
            let pid = try #require(try await listenerBackend())

            let session = try await one.back2back.create(title: "Shared", host: host, persona: nil)
            let (token, signals) = await two.back2back.live.subscribe(session.session.id)
            // The listener's connection ends; the change is made while nobody listens.
            try await db.database.withConnection { sql in try await sql.raw("SELECT pg_terminate_backend(CAST(\(bind: pid) AS integer))").run() }
            #expect(try await eventually { try await listenerBackend() != pid })
            try await one.back2back.run(session.session.id, .letAIStart(by: host.id))

            // The first change on the other server, or nil after 20 s (a lost change fails
            // the test instead of hanging it).
            let first = await withTaskGroup(of: VersionBoard<DJSessionID>.Signal?.self) { group in
                group.addTask {
                    for await signal in signals where signal != .heartbeat { return signal }
                    return nil
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(20))
                    return nil
                }
                let result = await group.next() ?? nil
                group.cancelAll()
                return result
            }
            // The change (version 2, or a later one the DJ's pick made meanwhile).
            if case .changed(let version) = first { #expect(version >= 2) } else { Issue.record("no change heard: \(String(describing: first))") }
            await two.back2back.live.unsubscribe(session.session.id, token)
            await one.back2back.settle()
        }
    }
}
