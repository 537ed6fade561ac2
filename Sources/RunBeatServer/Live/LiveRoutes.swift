import Foundation
import Hummingbird
import HummingbirdWebSocket
import JukeCore
import JukePlatform
import RunBeat
import Storage

/// The live connections: a runner's page to its workout (samples in; cues, phases, strap
/// state, acknowledgements and the end out), and a coach's screen to a class (its runners'
/// states, once a second while they change).
struct LiveRoutes {
    typealias Context = JukeRequestContext
    let service: RunBeatService
    let live: LiveTraining
    let users: UserStore
    let clock: WallClock

    func register(on router: Router<Context>) {
        router.ws("/api/v1/runbeat/workouts/:workout_id/live") { _, context in
            let user = try CurrentRequest.requireUser()
            let id: WorkoutID = try parseID(context.parameters.get("workout_id") ?? "", field: "workout_id")
            _ = try await service.workout(id, of: user.id)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let user = try await caller(context.request), let id = Self.pathID(context.request, before: "live").flatMap(WorkoutID.init) else { return }
            // The page's own id (one per page load): the same page reconnecting records on, another page watches.
            let page = context.request.uri.queryParameters.get("page").map { String($0.prefix(64)) }
            let connected = try await live.connect(id, user: user.id, runner: user.displayName, page: page)
            try await outbound.write(.text(connected.hello))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await message in connected.messages { try await outbound.write(.text(message)) }
                }
                group.addTask {
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message else { continue }
                        await live.receive(id, connection: connected.connection, text: text)
                    }
                }
                _ = try await group.next()
                group.cancelAll()
            }
            await live.disconnect(id, connection: connected.connection)
        }
        router.ws("/api/v1/runbeat/classes/:code/live") { _, context in
            let user = try CurrentRequest.requireUser()
            _ = try await service.class(context.parameters.get("code") ?? "", coach: user.id)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let user = try await caller(context.request), let code = Self.pathID(context.request, before: "live")?.uppercased(),
                let stored = try? await service.class(code, coach: user.id)
            else { return }
            let watching = await live.watch(stored.code, name: stored.name)
            try await outbound.write(.text(LiveMessage.classState(code: stored.code, name: stored.name, runners: await live.runners(in: stored.code))))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await frame in watching.messages { try await outbound.write(.text(frame)) }
                }
                group.addTask { for try await _ in inbound {} }
                _ = try await group.next()
                group.cancelAll()
            }
            await live.unwatch(stored.code, id: watching.id)
        }
    }

    /// The path segment before `last` ("/api/v1/runbeat/workouts/<id>/live").
    static func pathID(_ request: Request, before last: String) -> String? {
        let parts = request.uri.path.split(separator: "/")
        guard parts.count >= 2, parts[parts.count - 1] == last else { return nil }
        return String(parts[parts.count - 2])
    }

    /// The signed-in user behind a request's bearer token or session cookie.
    func caller(_ request: Request) async throws -> User? {
        guard let token = Tokens.presented(by: request) else { return nil }
        return try await users.user(tokenHash: Tokens.hash(token), now: clock.now())
    }
}
