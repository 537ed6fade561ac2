import Hummingbird
import JukeCore
import JukePlatform
import TuneTrivia

/// The game and round a media route's address names
/// (`/api/v1/tunetrivia/sessions/:session_id/rounds/:round_id/…`): by round, never by track,
/// so the address says nothing of the song.
struct RoundAddress {
    let game: Game
    let round: Round

    init(_ parameters: Parameters, service: TuneTriviaService) async throws {
        let sessionID: SessionID = try parseID(parameters.get("session_id") ?? "", field: "session_id")
        let roundID: RoundID = try parseID(parameters.get("round_id") ?? "", field: "round_id")
        game = try await service.game(sessionID)
        guard let found = game.rounds.first(where: { $0.id == roundID }) else { throw APIError.notFound("round") }
        round = found
    }
}
