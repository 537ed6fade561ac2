import Foundation
import JukeCore
import JukePlatform
import TuneTrivia
import TuneTriviaAPI

/// The big screen's operations (the presenter view): pairing, the host's view of it, and
/// the room's view of the game for the screen.
extension TuneTriviaHandler {
    func startTriviaPresenterPairing(_ input: Operations.StartTriviaPresenterPairing.Input) async throws
        -> Operations.StartTriviaPresenterPairing.Output
    {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let pairing = try await presenters.startPairing(try parseID(input.path.sessionId, field: "session_id"), by: user.id)
            return .created(
                .init(
                    body: .json(
                        .init(
                            pairingCode: PairingCode.display(pairing.code), expiresAtMs: Milliseconds.since1970(pairing.expires),
                            presentUrl: "/tunetrivia/present/\(pairing.code)"))))
        }
    }

    func getTriviaPresenterStatus(_ input: Operations.GetTriviaPresenterStatus.Input) async throws -> Operations.GetTriviaPresenterStatus.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let status = try await presenters.status(try parseID(input.path.sessionId, field: "session_id"), by: user.id)
            return .ok(.init(body: .json(.init(connected: status.connected, lastSeenMs: status.lastSeen.map(Milliseconds.since1970)))))
        }
    }

    func disconnectTriviaPresenters(_ input: Operations.DisconnectTriviaPresenters.Input) async throws -> Operations.DisconnectTriviaPresenters.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await presenters.disconnect(try parseID(input.path.sessionId, field: "session_id"), by: user.id)
            return .noContent(.init())
        }
    }

    func pairTriviaPresenter(_ input: Operations.PairTriviaPresenter.Input) async throws -> Operations.PairTriviaPresenter.Output {
        try await respond {
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            guard (1...32).contains(body.code.unicodeScalars.count) else {
                throw APIError.badRequest("code is the code the host's phone shows.", field: "code")
            }
            let paired = try await presenters.pair(code: body.code, user: CurrentRequest.user, address: CurrentRequest.remoteAddress)
            return .ok(
                .init(
                    body: .json(
                        .init(token: paired.token, sessionId: paired.session.description, expiresAtMs: Milliseconds.since1970(paired.expires)))))
        }
    }

    func getTriviaPresenterState(_ input: Operations.GetTriviaPresenterState.Input) async throws -> Operations.GetTriviaPresenterState.Output {
        try await respond {
            let token = try PresenterToken.checked(input.query.token)
            let game = try await service.game(try await presenters.session(token: token))
            return .ok(.init(body: .json(TriviaMapping.presenterState(game, token: token))))
        }
    }
}

extension TriviaMapping {
    /// How many players the big screen lists (the first places): a room's names fit a TV at
    /// this many; the rest are a count.
    static let presenterListSize = 48

    /// The game as the room sees it (no seat, no answer before the reveal), with the big
    /// screen's own addresses for the current round's media.
    static func presenterState(_ game: Game, token: String) -> S.TriviaPresenterState {
        let view = game.view(for: nil)
        let round = view.round.flatMap { $0.phase == .pending ? nil : $0 }
        let id = round?.id.description
        // The room sees who has answered the song, not only how many: their names light up
        // on the big screen as each answer comes in (what, never an answer, is shown).
        var room = session(view)
        room.players = GameScreen(game).allPlayers(for: game.host).filter { !$0.isHost }.prefix(presenterListSize).map(player)
        return .init(
            session: room,
            clipUrl: id.map { PresenterToken.mediaURL(round: $0, "clip", token: token) },
            coverUrl: id.map { PresenterToken.mediaURL(round: $0, "cover", token: token) },
            artworkUrl: round?.phase == .revealed || round?.phase == .closed ? id.map { PresenterToken.mediaURL(round: $0, "artwork", token: token) } : nil)
    }
}
