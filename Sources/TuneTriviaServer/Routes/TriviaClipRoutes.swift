import Hummingbird
import JukeCore
import JukePlatform
import Storage
import TuneTrivia

/// The current song's audio for the host's device, addressed by game and round: the URL
/// carries no track ID and the response no tags. The bytes are the song's audio copied
/// without the file's tags and cover (or a transcode), since a file's own tags would give
/// the answer to anyone who reads them before the reveal. Players get 403; they hear the
/// song in the room.
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
        let address = try await RoundAddress(context.parameters, service: service)
        try address.game.requireHost(user.id)  // only the host's device plays the clip
        let round = address.round
        guard let track = try await library.track(id: round.track) else { throw APIError.notFound("track") }
        return try await media.serveAudio(of: track, untagged: true, request, context)
    }
}
