import Foundation
import JukeCore
import JukePlatform
import Storage
import TuneTrivia
import TuneTriviaAPI

/// TuneTrivia's operations from the contract. Each handler is thin: read the input, call
/// the service, map the result.
struct TuneTriviaHandler: APIProtocol {
    typealias S = Components.Schemas
    let service: TuneTriviaService
    let presenters: PresenterService
    let users: UserStore
    let clock: WallClock

    func listTriviaSessions(_ input: Operations.ListTriviaSessions.Input) async throws -> Operations.ListTriviaSessions.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let page = try Paging(limit: input.query.limit, offset: input.query.offset)
            let (items, total) = try await service.sessions(for: user.id, limit: page.limit, offset: page.offset)
            let summaries = items.map {
                S.TriviaSessionSummary(
                    id: $0.id.description, title: $0.title, status: .init(rawValue: $0.status.rawValue) ?? .lobby,
                    mode: .init(rawValue: $0.mode.rawValue) ?? .party, inviteCode: $0.inviteCode, isHost: $0.isHost, playerCount: $0.playerCount,
                    createdAt: $0.createdAt)
            }
            return .ok(.init(body: .json(.init(items: summaries, total: total, limit: page.limit, offset: page.offset))))
        }
    }

    func createTriviaSession(_ input: Operations.CreateTriviaSession.Input) async throws -> Operations.CreateTriviaSession.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let game = try await service.create(try TriviaMapping.settings(body), host: user)
            return .created(.init(body: .json(TriviaMapping.session(game.view(for: user.id)))))
        }
    }

    func joinTriviaSession(_ input: Operations.JoinTriviaSession.Input) async throws -> Operations.JoinTriviaSession.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let game = try await service.join(code: body.inviteCode, user: user, name: body.displayName, address: CurrentRequest.remoteAddress)
            return .ok(.init(body: .json(TriviaMapping.session(game.view(for: user.id)))))
        }
    }

    /// The game as the caller may see it (the session route and the polling route are one view).
    private func sessionView(_ sessionID: String) async throws -> S.TriviaSession {
        let user = try CurrentRequest.requireUser()
        let game = try await service.game(try parseID(sessionID, field: "session_id"), for: user.id)
        return TriviaMapping.session(game.view(for: user.id))
    }

    func getTriviaSession(_ input: Operations.GetTriviaSession.Input) async throws -> Operations.GetTriviaSession.Output {
        try await respond {
            .ok(.init(body: .json(try await sessionView(input.path.sessionId))))
        }
    }

    func getTriviaState(_ input: Operations.GetTriviaState.Input) async throws -> Operations.GetTriviaState.Output {
        try await respond {
            .ok(.init(body: .json(try await sessionView(input.path.sessionId))))
        }
    }

    func updateTriviaSession(_ input: Operations.UpdateTriviaSession.Input) async throws -> Operations.UpdateTriviaSession.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let patch) = input.body else { throw APIError.badRequest("Send JSON.") }
            let id: SessionID = try parseID(input.path.sessionId, field: "session_id")
            let settings = try TriviaMapping.apply(patch, to: try await service.game(id).settings)
            let game = try await service.run(id, by: user.id, .updateSettings(settings)).game
            return .ok(.init(body: .json(TriviaMapping.session(game.view(for: user.id)))))
        }
    }

    func deleteTriviaSession(_ input: Operations.DeleteTriviaSession.Input) async throws -> Operations.DeleteTriviaSession.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await service.delete(try parseID(input.path.sessionId, field: "session_id"), by: user.id)
            return .noContent(.init())
        }
    }

    private func control(_ sessionID: String, _ command: Command) async throws -> S.TriviaSession {
        let user = try CurrentRequest.requireUser()
        let id: SessionID = try parseID(sessionID, field: "session_id")
        try await service.prepareTrivia(id, by: user.id, before: command)
        let game = try await service.run(id, by: user.id, command).game
        return TriviaMapping.session(game.view(for: user.id))
    }

    func triviaControlStart(_ input: Operations.TriviaControlStart.Input) async throws -> Operations.TriviaControlStart.Output {
        try await respond {
            .ok(.init(body: .json(try await control(input.path.sessionId, .start))))
        }
    }
    func triviaControlPause(_ input: Operations.TriviaControlPause.Input) async throws -> Operations.TriviaControlPause.Output {
        try await respond {
            .ok(.init(body: .json(try await control(input.path.sessionId, .pause))))
        }
    }
    func triviaControlResume(_ input: Operations.TriviaControlResume.Input) async throws -> Operations.TriviaControlResume.Output {
        try await respond {
            .ok(.init(body: .json(try await control(input.path.sessionId, .resume))))
        }
    }
    func triviaControlEnd(_ input: Operations.TriviaControlEnd.Input) async throws -> Operations.TriviaControlEnd.Output {
        try await respond {
            .ok(.init(body: .json(try await control(input.path.sessionId, .end))))
        }
    }
    func triviaControlNextRound(_ input: Operations.TriviaControlNextRound.Input) async throws -> Operations.TriviaControlNextRound.Output {
        try await respond {
            .ok(.init(body: .json(try await control(input.path.sessionId, .nextRound))))
        }
    }
    func triviaControlReveal(_ input: Operations.TriviaControlReveal.Input) async throws -> Operations.TriviaControlReveal.Output {
        try await respond {
            .ok(.init(body: .json(try await control(input.path.sessionId, .reveal))))
        }
    }
    func triviaControlRevealTrivia(_ input: Operations.TriviaControlRevealTrivia.Input) async throws -> Operations.TriviaControlRevealTrivia.Output {
        try await respond {
            .ok(.init(body: .json(try await control(input.path.sessionId, .revealTrivia))))
        }
    }

    func listTriviaRounds(_ input: Operations.ListTriviaRounds.Input) async throws -> Operations.ListTriviaRounds.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let game = try await service.game(try parseID(input.path.sessionId, field: "session_id"), for: user.id)
            return .ok(.init(body: .json(game.roundViews(for: user.id).map { TriviaMapping.round($0, session: game.id) })))
        }
    }

    func addTriviaRound(_ input: Operations.AddTriviaRound.Input) async throws -> Operations.AddTriviaRound.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            if let start = body.clipStart, !(0...86_400).contains(start) {
                throw APIError.badRequest("clip_start is seconds into the track.", field: "clip_start")
            }
            let id: SessionID = try parseID(input.path.sessionId, field: "session_id")
            let round = try await service.addRound(id, by: user.id, track: try parseID(body.trackId, field: "track_id"), clipStart: body.clipStart)
            return .created(.init(body: .json(TriviaMapping.round(GameView.RoundView(round, forHost: true), session: id))))
        }
    }

    func autoGenerateTriviaRounds(_ input: Operations.AutoGenerateTriviaRounds.Input) async throws -> Operations.AutoGenerateTriviaRounds.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let id: SessionID = try parseID(input.path.sessionId, field: "session_id")
            let (game, pick) = try await service.autoGenerate(id, by: user.id, others: input.query.others ?? false)
            let rounds = game.roundViews(for: user.id).map { TriviaMapping.round($0, session: id) }
            return .ok(.init(body: .json(.init(rounds: rounds, wanted: pick.wanted, added: pick.tracks.count, missing: pick.missing))))
        }
    }

    func deleteTriviaRound(_ input: Operations.DeleteTriviaRound.Input) async throws -> Operations.DeleteTriviaRound.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await service.run(
                try parseID(input.path.sessionId, field: "session_id"), by: user.id, .removeRound(try parseID(input.path.roundId, field: "round_id")))
            return .noContent(.init())
        }
    }

    func generateTriviaQuestion(_ input: Operations.GenerateTriviaQuestion.Input) async throws -> Operations.GenerateTriviaQuestion.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let id: SessionID = try parseID(input.path.sessionId, field: "session_id")
            let round = try await service.generateTrivia(id, by: user.id, round: try parseID(input.path.roundId, field: "round_id"))
            return .ok(.init(body: .json(TriviaMapping.round(GameView.RoundView(round, forHost: true), session: id))))
        }
    }

    func listTriviaPlayers(_ input: Operations.ListTriviaPlayers.Input) async throws -> Operations.ListTriviaPlayers.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let game = try await service.game(try parseID(input.path.sessionId, field: "session_id"), for: user.id)
            return .ok(.init(body: .json(GameScreen(game).allPlayers(for: user.id).map(TriviaMapping.player))))
        }
    }

    func addTriviaPlayer(_ input: Operations.AddTriviaPlayer.Input) async throws -> Operations.AddTriviaPlayer.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let seat = PlayerID()
            let game = try await service.run(
                try parseID(input.path.sessionId, field: "session_id"), by: user.id, .addManualPlayer(player: seat, name: body.displayName)
            ).game
            guard let player = GameScreen(game).allPlayers(for: user.id).first(where: { $0.id == seat }) else { throw APIError.notFound("player") }
            return .created(.init(body: .json(TriviaMapping.player(player))))
        }
    }

    func deleteTriviaPlayer(_ input: Operations.DeleteTriviaPlayer.Input) async throws -> Operations.DeleteTriviaPlayer.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await service.run(
                try parseID(input.path.sessionId, field: "session_id"), by: user.id, .removePlayer(try parseID(input.path.playerId, field: "player_id")))
            return .noContent(.init())
        }
    }

    func listRemovedTriviaPlayers(_ input: Operations.ListRemovedTriviaPlayers.Input) async throws -> Operations.ListRemovedTriviaPlayers.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let game = try await service.game(try parseID(input.path.sessionId, field: "session_id"), for: user.id)
            try game.requireHost(user.id)
            return .ok(.init(body: .json(game.removed.map { S.TriviaRemovedPlayer(playerId: $0.player.description, displayName: $0.displayName) })))
        }
    }

    func letBackTriviaPlayer(_ input: Operations.LetBackTriviaPlayer.Input) async throws -> Operations.LetBackTriviaPlayer.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await service.run(
                try parseID(input.path.sessionId, field: "session_id"), by: user.id, .letBack(try parseID(input.path.playerId, field: "player_id")))
            return .noContent(.init())
        }
    }

    func submitTriviaGuess(_ input: Operations.SubmitTriviaGuess.Input) async throws -> Operations.SubmitTriviaGuess.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let id: SessionID = try parseID(input.path.sessionId, field: "session_id")
            // A token the middleware did not look up is checked with the answer's batch; should
            // the answer be refused before that, the token is checked first, so that a signed-out
            // token hears 401 rather than why its answer would not count.
            let unchecked = CurrentRequest.tokenUnchecked ? CurrentRequest.tokenHash : nil
            let seat: Player
            do {
                seat = try await service.guessingSeat(in: id, of: user.id)
            } catch {
                if let unchecked, try await users.validTokens([unchecked], now: clock.now()).isEmpty { throw APIError.unauthorized }
                throw error
            }
            let command: Command
            if let option = body.triviaGuess {
                command = .answerTrivia(player: seat.id, option: option)
            } else {
                command = .guess(player: seat.id, artist: body.artistGuess ?? "", song: body.songGuess ?? "")
            }
            let game = try await service.run(id, by: user.id, command, checkingToken: unchecked).game
            return .accepted(.init(body: .json(.init(accepted: true, roundNumber: game.currentRound))))
        }
    }

    func scoreTriviaPlayer(_ input: Operations.ScoreTriviaPlayer.Input) async throws -> Operations.ScoreTriviaPlayer.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let id: SessionID = try parseID(input.path.sessionId, field: "session_id")
            let player: PlayerID = try parseID(body.playerId, field: "player_id")
            let command: Command
            if let field = body.acceptNearMiss {
                command = .acceptNearMiss(player: player, field: field == .artist ? .artist : .song)
            } else {
                command = .score(player: player, artist: body.artistCorrect ?? false, song: body.songCorrect ?? false, trivia: body.triviaCorrect ?? false)
            }
            let game = try await service.run(id, by: user.id, command).game
            return .ok(.init(body: .json(GameScreen(game).allPlayers(for: user.id).map(TriviaMapping.player))))
        }
    }

    func getTriviaScoreboard(_ input: Operations.GetTriviaScoreboard.Input) async throws -> Operations.GetTriviaScoreboard.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let game = try await service.game(try parseID(input.path.sessionId, field: "session_id"), for: user.id)
            // The ranked players, best first (the host is never ranked).
            let ranked = GameScreen(game).allPlayers(for: user.id).filter { !$0.isHost }
            return .ok(.init(body: .json(ranked.map(TriviaMapping.player))))
        }
    }

    func getTriviaLeaderboard(_ input: Operations.GetTriviaLeaderboard.Input) async throws -> Operations.GetTriviaLeaderboard.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            let page = try Paging(limit: input.query.limit, offset: input.query.offset)
            let (entries, total) = try await service.leaderboard(limit: page.limit, offset: page.offset)
            return .ok(.init(body: .json(.init(items: entries.map(TriviaMapping.entry), total: total, limit: page.limit, offset: page.offset))))
        }
    }

    func getMyTriviaRank(_ input: Operations.GetMyTriviaRank.Input) async throws -> Operations.GetMyTriviaRank.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard let entry = try await service.rank(of: user.id) else {
                throw APIError.notFound("leaderboard entry: finish a game first")
            }
            return .ok(.init(body: .json(TriviaMapping.entry(entry))))
        }
    }
}
