import Foundation
import Hummingbird
import HummingbirdWebSocket
import JukeCore
import JukePlatform
import LiveUpdates
import Prometheus
import Storage
import TuneTrivia
import TuneTriviaAPI

/// The live game, pushed: the game as the viewer may see it (the same JSON as
/// GET /api/v1/tunetrivia/sessions/{id}), sent at once and again after every change that
/// shows on their screen, so no client has to poll. Over a WebSocket (`/ws`, one text
/// message per state) or, where a WebSocket cannot get through, as server-sent events
/// (`/events`, which `EventSource` reconnects by itself). How long each change took to reach
/// each screen is recorded in `juke_tunetrivia_push_delay_seconds` (/metrics).
struct TriviaEventRoutes {
    typealias Context = JukeRequestContext
    let service: TuneTriviaService
    let hub: TriviaHub
    let users: UserStore
    let clock: WallClock
    let pushDelay: DurationHistogram
    let pushPath: PushPath

    init(service: TuneTriviaService, hub: TriviaHub, users: UserStore, clock: WallClock, metrics: PrometheusCollectorRegistry, pushPath: PushPath) {
        self.pushPath = pushPath
        self.service = service
        self.hub = hub
        self.users = users
        self.clock = clock
        pushDelay = metrics.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "juke", subsystem: "tunetrivia", metricName: "push_delay", unitName: "seconds",
                helpText: "From a change of a game to its push written to a screen's connection."),
            buckets: Self.buckets)
    }

    /// Milliseconds; every 10 around a big room's reveal (its target is 100), so its p99 is
    /// read to 10 ms rather than to the next coarse bucket.
    static var buckets: [Duration] {
        [1, 2, 3, 4, 5, 7.5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 175, 200, 250, 300, 400, 500, 600, 750, 1000, 5000].map {
            .microseconds(Int64($0 * 1000))
        }
    }

    func register(on router: Router<Context>) {
        router.get("/api/v1/tunetrivia/sessions/:session_id/events") { request, context in try await events(request, context) }
        router.ws("/api/v1/tunetrivia/sessions/:session_id/ws") { _, context in
            // Refuse before upgrading: unknown games, callers without a session, and anyone
            // who is not in the game (404, as for an unknown game).
            let user = try CurrentRequest.requireUser()
            _ = try await service.game(try parseID(context.parameters.get("session_id") ?? "", field: "session_id"), for: user.id)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            // The upgrade handler runs after the request's middleware, so the caller is found
            // again from the same credentials.
            guard let user = try await caller(context.request),
                let raw = context.request.uri.path.split(separator: "/").dropLast().last, let id = SessionID(String(raw))
            else { return }
            let socket = try await TriviaSocket.attach(to: context.requestContext.channel, user: user, path: pushPath, delays: pushDelay.record)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await push(id, to: user, socket: socket) { push in
                        switch push {
                        case .state(let json): try await outbound.write(.text(json))
                        // A control frame must be final (FIN set; NIO's default is not):
                        // a non-final ping is a protocol error that closes the connection.
                        case .heartbeat: try await outbound.write(.custom(.init(fin: true, opcode: .ping, data: ByteBuffer())))
                        case .deleted: try await outbound.write(.text(#"{"deleted":true}"#))
                        }
                    }
                }
                // The client's side: nothing to read but the close, which ends the stream.
                group.addTask { for try await _ in inbound {} }
                _ = try await group.next()
                group.cancelAll()
            }
        }
    }

    enum Push: Sendable {
        case state(String)
        case heartbeat
        case deleted
    }

    /// Sends `user` the game's states until the connection or the game ends: the current
    /// state first, then each change that shows on their screen. With a `socket`, the hub
    /// writes the states and heartbeats onto it itself, and `send` only says the game is gone.
    /// Only the game's members are served (checked again here: the upgrade handler finds the
    /// caller anew).
    func push(_ id: SessionID, to user: UserID, socket: TriviaSocket? = nil, send: (Push) async throws -> Void) async throws {
        let current = try await service.current(id, for: user)
        let mailbox = await hub.subscribe(id, user: user, game: current.game, version: current.version, socket: socket)
        do {
            for await _ in mailbox.wakeups {
                let mail = mailbox.take()
                if mail.deleted {
                    try await send(.deleted)
                    break
                }
                if let frame = mail.frame {
                    let online = frame.host == user ? await hub.online(id) : nil
                    try await send(.state(try frame.message(for: user, online: online)))
                    if let since = mail.since { pushDelay.record(.now - since) }
                } else if mail.heartbeat {
                    try await send(.heartbeat)
                }
            }
        } catch {
            await hub.unsubscribe(id, mailbox)
            throw error
        }
        await hub.unsubscribe(id, mailbox)
    }

    func events(_ request: Request, _ context: Context) async throws -> Response {
        let user = try CurrentRequest.requireUser()
        let id: SessionID = try parseID(context.parameters.get("session_id") ?? "", field: "session_id")
        _ = try await service.game(id, for: user.id)  // 404 before the stream starts, for non-members too
        let body = ResponseBody { writer in
            try await push(id, to: user.id) { push in
                switch push {
                case .heartbeat: try await writer.write(ServerSentEvent.keepAlive.buffer)
                case .state(let json): try await writer.write(ServerSentEvent.event("state", data: json).buffer)
                case .deleted: try await writer.write(ServerSentEvent.event("deleted", data: "{}").buffer)
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    /// The signed-in user behind a request's bearer token or session cookie.
    func caller(_ request: Request) async throws -> UserID? {
        guard let token = Tokens.presented(by: request) else { return nil }
        return try await users.user(tokenHash: Tokens.hash(token), now: clock.now())?.id
    }
}
