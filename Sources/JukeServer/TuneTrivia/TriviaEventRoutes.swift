import Foundation
import Hummingbird
import JukeAPI
import JukeCore
import TuneTrivia

/// The live game as server-sent events: the game as the viewer may see it (the same JSON as
/// GET /api/v1/tunetrivia/sessions/{id}), sent at once and again after every change, so no
/// client has to poll. `EventSource` in the browser reconnects by itself after a drop.
struct TriviaEventRoutes<Context: RequestContext> {
    let service: TuneTriviaService
    let hub: TriviaHub

    func register(on router: Router<Context>) {
        router.get("/api/v1/tunetrivia/sessions/:session_id/events") { request, context in try await events(request, context) }
    }

    func events(_ request: Request, _ context: Context) async throws -> Response {
        let user = try CurrentRequest.requireUser()
        let id: SessionID = try parseID(context.parameters.get("session_id") ?? "", field: "session_id")
        _ = try await service.game(id)  // 404 before the stream starts
        let signals = await hub.subscribe(id, user: user.id)
        let hub = self.hub
        let service = self.service
        let body = ResponseBody { writer in
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            for await signal in signals {
                switch signal {
                case .heartbeat:
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                case .changed:
                    guard let game = try? await service.game(id) else {
                        try await writer.write(ByteBuffer(string: "event: deleted\ndata: {}\n\n"))
                        try await writer.finish(nil)
                        return
                    }
                    let json = try encoder.encode(TriviaMapping.session(game.view(for: user.id), online: await hub.online(id)))
                    try await writer.write(ByteBuffer(string: "event: state\ndata: \(String(decoding: json, as: UTF8.self))\n\n"))
                }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: body)
    }
}
