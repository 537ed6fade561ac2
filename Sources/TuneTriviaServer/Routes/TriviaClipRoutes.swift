import Hummingbird
import JukeCore
import JukePlatform
import Storage
import TuneTrivia

/// The current song's audio for the host's device, addressed by game and round: the URL
/// carries no track ID and the response no tags (the bytes are the file's, so the player
/// that fetches them is the host's). Players get 403; they hear the song in the room.
struct TriviaClipRoutes<Context: RequestContext> {
    let service: TuneTriviaService
    let library: LibraryStore
    let media: MediaRoutes<Context>

    func register(on router: Router<Context>) {
        router.get("/api/v1/tunetrivia/sessions/:session_id/rounds/:round_id/clip") { request, context in try await clip(request, context) }
        router.head("/api/v1/tunetrivia/sessions/:session_id/rounds/:round_id/clip") { request, context in try await clip(request, context) }
    }

    func clip(_ request: Request, _ context: Context) async throws -> Response {
        let user = try CurrentRequest.requireUser()
        let sessionID: SessionID = try parseID(context.parameters.get("session_id") ?? "", field: "session_id")
        let roundID: RoundID = try parseID(context.parameters.get("round_id") ?? "", field: "round_id")
        let game = try await service.game(sessionID)
        try game.requireHost(user.id)  // only the host's device plays the clip
        guard let round = game.rounds.first(where: { $0.id == roundID }) else { throw APIError.notFound("round") }
        guard let track = try await library.track(id: round.track) else { throw APIError.notFound("track") }
        return try await media.serveAudio(of: track, request, context)
    }
}
