import Foundation
import JukeTestSupport
import Storage
import Testing
import TuneTrivia
import TuneTriviaAPI

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

/// Every TuneTrivia endpoint through the client generated from openapi.yaml, on SQLite and
/// on PostgreSQL: two whole games, one per mode.
@Suite(.timeLimit(.minutes(5))) struct TuneTriviaClientTests {
    typealias S = Components.Schemas

    @Test(arguments: TestBackend.available)
    func aPartyGameThroughTheGeneratedClient(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let host = try client.api(try await client.register("host"))
            let ann = try client.api(try await client.register("ann"))
            let bob = try client.api(try await client.register("bob"))
            _ = try await app.addSongs(TuneTriviaAPITests.songs)

            let created = try await host.createTriviaSession(
                body: .json(S.TriviaSettings(title: "Friday", mode: .party, numSongs: 5, secondsPerSong: 20, triviaEnabled: true))
            ).created.body.json
            #expect(created.status == .lobby && created.isHost && created.inviteCode.count == 6)
            let game = Operations.GetTriviaSession.Input.Path(sessionId: created.id)
            #expect(try await host.getTriviaSession(path: game).ok.body.json.title == "Friday")
            let renamed = try await host.updateTriviaSession(
                path: .init(sessionId: created.id), body: .json(S.TriviaSettingsPatch(title: "Friday night"))
            ).ok.body.json
            #expect(renamed.title == "Friday night")
            #expect(try await host.listTriviaSessions().ok.body.json.items.map(\.id) == [created.id])

            // Songs: five picked for us; one taken out and put back by hand; trivia for the first.
            let picked = try await host.autoGenerateTriviaRounds(path: .init(sessionId: created.id)).ok.body.json
            let rounds = picked.rounds
            #expect(rounds.count == 5 && picked.added == 5 && picked.wanted == 5 && picked.missing.isEmpty)
            let last = try #require(rounds.last)
            _ = try await host.deleteTriviaRound(path: .init(sessionId: created.id, roundId: last.id)).noContent
            #expect(try await host.listTriviaRounds(path: .init(sessionId: created.id)).ok.body.json.count == 4)
            let readded = try await host.addTriviaRound(
                path: .init(sessionId: created.id), body: .json(.init(trackId: try #require(last.trackId)))
            ).created.body.json
            #expect(readded.roundNumber == 5)
            let first = try #require(rounds.first)
            let trivia = try await host.generateTriviaQuestion(path: .init(sessionId: created.id, roundId: first.id)).ok.body.json
            #expect(trivia.triviaOptions?.count == 4)

            // Two players join by code; Bob leaves and comes back.
            let joined = try await ann.joinTriviaSession(body: .json(.init(inviteCode: created.inviteCode.lowercased()))).ok.body.json
            #expect(joined.you != nil && joined.playerCount == 1)
            let bobSeat = try #require(try await bob.joinTriviaSession(body: .json(.init(inviteCode: created.inviteCode))).ok.body.json.you)
            #expect(try await host.listTriviaPlayers(path: .init(sessionId: created.id)).ok.body.json.count == 3)
            _ = try await bob.deleteTriviaPlayer(path: .init(sessionId: created.id, playerId: bobSeat)).noContent
            _ = try await bob.joinTriviaSession(body: .json(.init(inviteCode: created.inviteCode))).ok

            // Play: start, pause, resume; Ann names the song, Bob does not; reveal.
            _ = try await host.triviaControlStart(path: .init(sessionId: created.id)).ok
            // Only the host runs the game: the contract's 403.
            #expect(try await ann.triviaControlPause(path: .init(sessionId: created.id)).forbidden.body.json.error == "forbidden")
            _ = try await host.triviaControlPause(path: .init(sessionId: created.id)).ok
            _ = try await host.triviaControlResume(path: .init(sessionId: created.id)).ok
            let hostState = try await host.getTriviaState(path: .init(sessionId: created.id)).ok.body.json
            let answer = try #require(hostState.round)
            let annState = try await ann.getTriviaState(path: .init(sessionId: created.id)).ok.body.json
            #expect(annState.round?.title == nil && annState.round?.artist == nil, "no answer before the reveal")
            let guess = try await ann.submitTriviaGuess(
                path: .init(sessionId: created.id), body: .json(.init(artistGuess: answer.artist, songGuess: answer.title))
            ).accepted.body.json
            #expect(guess.accepted && guess.roundNumber == 1)
            _ = try await bob.submitTriviaGuess(path: .init(sessionId: created.id), body: .json(.init(songGuess: "something else"))).accepted
            _ = try await host.triviaControlReveal(path: .init(sessionId: created.id)).ok
            let scores = try await ann.getTriviaScoreboard(path: .init(sessionId: created.id)).ok.body.json
            #expect(scores.map(\.displayName) == ["ann", "bob"] && scores.first?.totalScore == 2)
            _ = try await host.triviaControlRevealTrivia(path: .init(sessionId: created.id)).ok
            let next = try await host.triviaControlNextRound(path: .init(sessionId: created.id)).ok.body.json
            #expect(next.currentRound == 2)
            let ended = try await host.triviaControlEnd(path: .init(sessionId: created.id)).ok.body.json
            #expect(ended.status == .ended)

            // The global leaderboard, and Ann's place on it.
            let board = try await ann.getTriviaLeaderboard(query: .init(limit: 10)).ok.body.json
            #expect(board.items.first?.displayName == "ann" && board.total == 2)
            #expect(try await ann.getMyTriviaRank().ok.body.json.rank == 1)
        }
    }

    @Test(arguments: TestBackend.available)
    func aHostModeGameThroughTheGeneratedClient(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let host = try client.api(try await client.register("host"))
            _ = try await app.addSongs(TuneTriviaAPITests.songs)
            let created = try await host.createTriviaSession(body: .json(S.TriviaSettings(title: "Sunday", mode: .host))).created.body.json
            let path = Operations.AddTriviaPlayer.Input.Path(sessionId: created.id)
            let grandma = try await host.addTriviaPlayer(path: path, body: .json(.init(displayName: "Grandma"))).created.body.json
            #expect(grandma.isManual)
            _ = try await host.autoGenerateTriviaRounds(path: .init(sessionId: created.id)).ok
            _ = try await host.triviaControlStart(path: .init(sessionId: created.id)).ok
            let scored = try await host.scoreTriviaPlayer(
                path: .init(sessionId: created.id), body: .json(.init(playerId: grandma.id, artistCorrect: true, songCorrect: true))
            ).ok.body.json
            #expect(scored.first { $0.id == grandma.id }?.totalScore == 2)
            _ = try await host.deleteTriviaSession(path: .init(sessionId: created.id)).noContent
            #expect(try await host.getTriviaSession(path: .init(sessionId: created.id)).notFound.body.json.error == "not_found")
        }
    }

    /// Answers arriving together are committed together: each gets its own reply, a second
    /// answer from the same player is refused without spoiling the others, and every
    /// accepted one is stored.
    @Test(arguments: TestBackend.available)
    func answersArrivingTogetherEachGetTheirOwnReply(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let host = try client.api(try await client.register("host"))
            _ = try await app.addSongs(TuneTriviaAPITests.songs)
            let created = try await host.createTriviaSession(body: .json(S.TriviaSettings(title: "Rush"))).created.body.json
            _ = try await host.autoGenerateTriviaRounds(path: .init(sessionId: created.id)).ok
            var players: [Client] = []
            for i in 0..<24 {
                let player = try client.api(try await client.register("player\(i)"))
                _ = try await player.joinTriviaSession(body: .json(.init(inviteCode: created.inviteCode))).ok
                players.append(player)
            }
            _ = try await host.triviaControlStart(path: .init(sessionId: created.id)).ok
            let path = Operations.SubmitTriviaGuess.Input.Path(sessionId: created.id)
            let replies = try await withThrowingTaskGroup(of: Bool.self) { group in
                for player in players + [players[0]] {
                    group.addTask {
                        let output = try await player.submitTriviaGuess(path: path, body: .json(.init(songGuess: "a guess")))
                        if case .accepted = output { return true }
                        return false
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(replies.count { $0 } == 24 && replies.count { !$0 } == 1)
            let state = try await host.getTriviaState(path: .init(sessionId: created.id)).ok.body.json
            #expect(state.answeredCount == 24)
            // Stored, not only cached: a fresh read of the game from the database agrees.
            let sessionID = try #require(SessionID(created.id))
            let stored = try #require(try await TuneTriviaStore(database: app.services.database).load(sessionID))
            #expect(stored.game.round.flatMap { stored.game.guesses[$0.id] }?.count == 24)
        }
    }
}
