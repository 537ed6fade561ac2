import Foundation
import JukeCore
import TuneTrivia

/// Trivia on means trivia every round. Questions are written in the background as songs are
/// added or trivia is turned on (the AI's when one is configured: seconds per question, so
/// never while the room waits), and any round about to start without one gets Juke's own
/// library question first, which takes no time.
extension TuneTriviaService {
    /// After a commit: a change to the game's songs or settings may leave rounds without trivia.
    func committed(_ id: SessionID, game: Game, events: [GameEvent]) {
        if events.contains(where: { $0 == .roundsChanged || $0 == .settingsChanged }) { triviaMayBeMissing(id, in: game) }
    }

    /// Writes the questions the game lacks, unless that is already under way (then the
    /// writer looks again when done).
    func triviaMayBeMissing(_ id: SessionID, in game: Game) {
        guard game.settings.triviaEnabled, game.status != .ended, game.rounds.contains(where: Self.lacksTrivia) else { return }
        guard writingTrivia.insert(id).inserted else {
            triviaAgain.insert(id)
            return
        }
        background.start("trivia writing") { await self.writeMissingTrivia(id) }
    }

    static func lacksTrivia(_ round: Round) -> Bool { round.phase == .pending && round.trivia == nil }

    private func writeMissingTrivia(_ id: SessionID) async {
        defer { writingTrivia.remove(id) }
        var tried: Set<RoundID> = []
        repeat {
            triviaAgain.remove(id)
            let game: Game
            do {
                game = try await self.game(id)
            } catch {
                // The host's start or next round writes what is missing then.
                logger.warning("tunetrivia: could not read a game to write its trivia", metadata: ["session": "\(id)", "error": "\(error)"])
                return
            }
            guard game.settings.triviaEnabled, game.status != .ended else { return }
            // A song the library cannot ask about is tried once, not on every later change.
            for round in game.rounds where Self.lacksTrivia(round) && tried.insert(round.id).inserted {
                let written: Trivia?
                do {
                    written = try await writeTrivia(for: round, of: id, askingAI: true)
                } catch {
                    // The round keeps none for now: the host's start or next round writes it then.
                    logger.error("trivia not written", metadata: ["round": "\(round.id)", "error": "\(error)"])
                    return
                }
                guard let trivia = written else { continue }
                // Refused when the round started meanwhile (it got its question then) or was removed.
                do {
                    try await run(id, by: game.host, .setTrivia(round.id, trivia))
                } catch {
                    logger.debug("trivia not set", metadata: ["round": "\(round.id)", "error": "\(error)"])
                }
            }
        } while triviaAgain.contains(id)
    }

    /// Before the host starts the game or moves on: the round about to play gets a question
    /// now when trivia is on and it has none yet (the background writer is behind, or the
    /// AI failed): Juke's own, written from the library at once.
    func prepareTrivia(_ id: SessionID, by user: UserID, before command: Command) async throws {
        let game = try await game(id)
        guard user == game.host, game.settings.triviaEnabled else { return }
        let next: Int
        switch command {
        case .start where game.status == .lobby: next = 1
        case .nextRound where game.status == .active: next = game.currentRound + 1
        default: return
        }
        guard next >= 1, next <= game.rounds.count else { return }
        let round = game.rounds[next - 1]
        guard Self.lacksTrivia(round), let trivia = try await writeTrivia(for: round, of: id, askingAI: false) else { return }
        _ = try? await run(id, by: user, .setTrivia(round.id, trivia))
    }
}
