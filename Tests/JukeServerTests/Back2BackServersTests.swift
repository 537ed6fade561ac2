import Back2Back
import Foundation
import JukeCore
import JukeTestSupport
import LiveUpdates
import Testing

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

/// Two Juke servers on one PostgreSQL database: a person watching a session on one sees a
/// change made on the other (NOTIFY carries it; each server skips its own).
@Suite(.timeLimit(.minutes(5))) struct Back2BackServersTests {
    @Test(.enabled(if: TestBackend.postgresAvailable, "needs PostgreSQL: JUKE_TEST_POSTGRES_URL")) func aChangeOnOneServerReachesTheWatchersOfTheOther()
        async throws
    {
        try await TestDatabase.with(.postgres, schemas: Juke.schemas) { db in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-b2b-\(UUID().uuidString)").path
            let one = AppServices(
                configuration: TestApp.configuration(dataDirectory: folder), database: db.database, clock: .system, logger: TestDatabase.logger)
            let two = AppServices(
                configuration: TestApp.configuration(dataDirectory: folder), database: db.database, clock: .system, logger: TestDatabase.logger)
            let host = User(id: UserID(), username: "host", email: nil, displayName: "Host", isAdmin: false, createdAt: Date())
            try await one.users.create(host, passwordHash: "h")
            // Each server listens, as its relay listener does in the application, and LISTEN is
            // confirmed in place before anything happens.
            var listeners: [Task<Void, any Error>] = []
            for services in [one, two] {
                listeners.append(
                    try await confirmedListen(db.database, channel: Back2BackService.relayChannel) { payload in
                        if let message = services.back2back.relay.accepts(payload) { await services.back2back.remoteChange(message) }
                    })
            }
            defer { listeners.forEach { $0.cancel() } }

            let session = try await one.back2back.create(title: "Shared", host: host, persona: nil)
            let (token, signals) = await two.back2back.live.subscribe(session.session.id)
            try await one.back2back.run(session.session.id, .letAIStart(by: host.id))
            // The first signal on the other server, or nil after 10 s (so a broken relay fails
            // the test instead of hanging it).
            let first = await withTaskGroup(of: VersionBoard<DJSessionID>.Signal?.self) { group in
                group.addTask {
                    for await signal in signals where signal != .heartbeat { return signal }
                    return nil
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(10))
                    return nil
                }
                let result = await group.next() ?? nil
                group.cancelAll()
                return result
            }
            #expect(first == .changed(version: 2))
            await two.back2back.live.unsubscribe(session.session.id, token)
            await one.back2back.settle()
        }
    }
}
