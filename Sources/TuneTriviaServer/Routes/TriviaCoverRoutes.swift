import Foundation
import Hummingbird
import JukeCore
import JukePlatform
import Storage
import TuneTrivia

/// The current round's cover before the reveal, shrunk to a few pixels for the page to blur:
/// addressed by game and round, with no track ID, no artwork hash in its ETag and no tags,
/// so nothing in the request or the response says which song plays. For the host and the
/// seated players; 404 when the song has no cover (or ffmpeg is missing), and the page
/// shows a plain gradient; 503 with Retry-After when every tool slot is taken and the line
/// for them is full.
struct TriviaCoverRoutes<Context: RequestContext> {
    let service: TuneTriviaService
    let library: LibraryStore
    let blur: CoverBlur

    func register(on router: Router<Context>) {
        router.get("/api/v1/tunetrivia/sessions/:session_id/rounds/:round_id/cover") { request, context in try await cover(request, context) }
    }

    func cover(_ request: Request, _ context: Context) async throws -> Response {
        let user = try CurrentRequest.requireUser()
        let address = try await RoundAddress(context.parameters, service: service)
        guard address.game.player(forUser: user.id) != nil else { throw RuleRefusal.forbidden("Join the game first.") }
        return try await Self.blurred(address.round, library: library, blur: blur)
    }

    /// The round's cover, a few pixels across (the host's, a player's and the big screen's).
    static func blurred(_ round: Round, library: LibraryStore, blur: CoverBlur) async throws -> Response {
        // Songs yet to play stay unseen: a cover could be matched to the library's.
        guard round.phase != .pending else { throw APIError.notFound("round") }
        guard let track = try await library.track(id: round.track), let hash = track.artworkHash, let art = try await library.artwork(hash: hash),
            let png = try await blur.tiny(art.data, key: hash)
        else { throw APIError.notFound("cover") }
        let headers: HTTPFields = [.contentType: "image/png", .contentLength: String(png.count), .cacheControl: "private, max-age=3600"]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: png)))
    }
}
