import Foundation
import Hummingbird
import JukeCore
import JukePlatform
import Storage
import TuneTrivia

/// A big screen's media: the clip it plays on the room's speaker, the blurred cover before
/// the reveal and the real one after. By round and by the screen's token, like the host's
/// clip: no address names a song, and songs not started yet are not served at all.
struct PresenterMediaRoutes<Context: RequestContext> {
    let presenters: PresenterService
    let service: TuneTriviaService
    let library: LibraryStore
    let media: MediaRoutes<Context>
    let blur: CoverBlur

    func register(on router: Router<Context>) {
        let base = "/api/v1/tunetrivia/presenter/rounds/:round_id"
        router.get("\(base)/clip") { request, context in try await clip(request, context) }
        router.head("\(base)/clip") { request, context in try await clip(request, context) }
        router.get("\(base)/cover") { request, context in try await cover(request, context) }
        router.get("\(base)/artwork") { request, context in try await artwork(request, context) }
    }

    /// The round the address names, in the game the token shows, once it has started.
    private func startedRound(_ request: Request, _ context: Context) async throws -> Round {
        let raw: String? = request.uri.queryParameters.get("token").map { String($0) }
        let token = try PresenterToken.checked(raw)
        let roundID: RoundID = try parseID(context.parameters.get("round_id") ?? "", field: "round_id")
        let game = try await service.game(try await presenters.session(token: token))
        guard let round = game.rounds.first(where: { $0.id == roundID }), round.phase != .pending else { throw APIError.notFound("round") }
        return round
    }

    func clip(_ request: Request, _ context: Context) async throws -> Response {
        let round = try await startedRound(request, context)
        guard let track = try await library.track(id: round.track) else { throw APIError.notFound("track") }
        // Without the file's tags, as the host's clip: the bytes must not say the answer.
        return try await media.serveAudio(of: track, untagged: true, request, context)
    }

    func cover(_ request: Request, _ context: Context) async throws -> Response {
        try await TriviaCoverRoutes<Context>.blurred(try await startedRound(request, context), library: library, blur: blur)
    }

    func artwork(_ request: Request, _ context: Context) async throws -> Response {
        let round = try await startedRound(request, context)
        guard round.isRevealed else { throw RuleRefusal.forbidden("The cover is shown once the answer is revealed.") }
        guard let track = try await library.track(id: round.track) else { throw APIError.notFound("track") }
        return try await media.serveArtwork(of: track, request)
    }
}
