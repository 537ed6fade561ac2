import Foundation
import Hummingbird
import HummingbirdWebSocket
import JukeAPI
import JukeCore
import Storage
import TuneTrivia

/// The live game, pushed: the game as the viewer may see it (the same JSON as
/// GET /api/v1/tunetrivia/sessions/{id}), sent at once and again after every change, so no
/// client has to poll. Over a WebSocket (`/ws`, one text message per state) or, where a
/// WebSocket cannot get through, as server-sent events (`/events`, which `EventSource`
/// reconnects by itself).
struct TriviaEventRoutes {
    typealias Context = JukeRequestContext
    let service: TuneTriviaService
    let hub: TriviaHub
    let users: UserStore
    let clock: WallClock

    func register(on router: Router<Context>) {
        router.get("/api/v1/tunetrivia/sessions/:session_id/events") { request, context in try await events(request, context) }
        router.ws("/api/v1/tunetrivia/sessions/:session_id/ws") { _, context in
            // Refuse before upgrading: unknown games and callers without a session.
            _ = try CurrentRequest.requireUser()
            _ = try await service.game(try parseID(context.parameters.get("session_id") ?? "", field: "session_id"))
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            // The upgrade handler runs after the request's middleware, so the caller is found
            // again from the same credentials.
            guard let user = try await caller(context.request),
                let raw = context.request.uri.path.split(separator: "/").dropLast().last, let id = SessionID(String(raw))
            else { return }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await state in states(of: id, for: user) {
                        switch state {
                        case .state(let json): try await outbound.write(.text(json))
                        case .heartbeat: try await outbound.write(.custom(.init(opcode: .ping, data: ByteBuffer())))
                        case .deleted:
                            try await outbound.write(.text(#"{"deleted":true}"#))
                            return
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

    /// The states to push to one viewer: one per change signal, rendered for that viewer.
    func states(of id: SessionID, for user: UserID) -> AsyncThrowingStream<Push, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Push.self)
        let service = self.service, hub = self.hub
        let task = Task {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            for await signal in await hub.subscribe(id, user: user) {
                switch signal {
                case .heartbeat:
                    continuation.yield(.heartbeat)
                case .changed:
                    guard let game = try? await service.game(id) else {
                        continuation.yield(.deleted)
                        continuation.finish()
                        return
                    }
                    do {
                        let json = try encoder.encode(TriviaMapping.session(game.view(for: user), online: await hub.online(id)))
                        continuation.yield(.state(String(decoding: json, as: UTF8.self)))
                    } catch {
                        continuation.finish(throwing: error)
                        return
                    }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    func events(_ request: Request, _ context: Context) async throws -> Response {
        let user = try CurrentRequest.requireUser()
        let id: SessionID = try parseID(context.parameters.get("session_id") ?? "", field: "session_id")
        _ = try await service.game(id)  // 404 before the stream starts
        let pushes = states(of: id, for: user.id)
        let body = ResponseBody { writer in
            for try await push in pushes {
                switch push {
                case .heartbeat: try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                case .state(let json): try await writer.write(ByteBuffer(string: "event: state\ndata: \(json)\n\n"))
                case .deleted:
                    try await writer.write(ByteBuffer(string: "event: deleted\ndata: {}\n\n"))
                    try await writer.finish(nil)
                    return
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
