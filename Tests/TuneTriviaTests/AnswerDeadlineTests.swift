import Foundation
import JukeCore
import Testing

@testable import TuneTrivia

/// A round takes answers while its clip plays, by the server's clock, and for a moment of
/// grace after (the network); a guess sent later is refused, and counts for nothing.
@Suite(.timeLimit(.minutes(5))) struct AnswerDeadlineTests {
    @Test func aGuessAfterTheClipAndItsGraceIsRefused() throws {
        var t = Table()  // clips of 20 seconds
        try t.join("Ann", "Bob", "Cy")
        try t.host(.start)
        t.wait(19)
        try t.guess("Ann", artist: "queen", song: "")
        // Sent as the countdown showed 0: still in, within the grace.
        t.wait(1 + Game.answerGrace)
        try t.guess("Bob", artist: "queen", song: "")
        // 25 seconds after the clip ended: refused, with its own refusal.
        t.wait(25 - Game.answerGrace)
        #expect(throws: GameError.tooLate("Time is up: answers for this song closed when the clip ended.")) {
            try t.guess("Cy", artist: "queen", song: "bohemian rhapsody")
        }
        try t.host(.reveal)
        #expect(t.score("Ann") == 1 && t.score("Bob") == 1 && t.score("Cy") == 0)
        #expect(t.game.guesses[t.game.rounds[0].id]?[t.seat("Cy")] == nil)
    }

    @Test func aPauseMovesTheDeadlineByItsLength() throws {
        var t = Table()
        try t.join("Ann")
        try t.host(.start)
        t.wait(10)
        try t.host(.pause)
        t.wait(60)
        try t.host(.resume)
        // The clip had 10 seconds left when paused: 9 seconds after the resume, a guess still counts.
        t.wait(9)
        #expect(t.game.answersCloseAt == t.now.addingTimeInterval(1 + Game.answerGrace))
        try t.guess("Ann", artist: "queen", song: "")
    }

    @Test func theNextRoundHasItsOwnClock() throws {
        var t = Table()
        try t.join("Ann")
        try t.host(.start)
        t.wait(60)
        try t.host(.reveal)
        try t.host(.nextRound)
        t.wait(5)
        try t.guess("Ann", artist: "bruce springsteen", song: "")
    }
}

/// The host's removal holds: the account cannot join the game again by its code until the
/// host lets it back; leaving by oneself is no ban.
@Suite(.timeLimit(.minutes(5))) struct RemovalTests {
    @Test func aRemovedPlayerCannotJoinAgainUntilLetBack() throws {
        var t = Table()
        try t.join("Ann", "Bob")
        let ann = try #require(t.users["Ann"])
        let seat = t.seat("Ann")
        try t.host(.removePlayer(seat))
        #expect(t.game.removed == [RemovedPlayer(player: seat, user: ann, displayName: "Ann")])
        #expect(throws: GameError.forbidden("The host removed you from this game. Ask them to let you back in.")) {
            try t.game.apply(.join(player: PlayerID(), name: "Ann again"), by: ann, at: t.now)
        }
        // Only the host lets anyone back.
        #expect(throws: GameError.forbidden("Only the host can do that.")) { try t.by("Bob", .letBack(seat)) }
        #expect(throws: GameError.notFound("Nobody removed from this game has that seat.")) { try t.host(.letBack(t.seat("Bob"))) }
        #expect(try t.host(.letBack(seat)) == [.letBack(seat)])
        #expect(t.game.removed.isEmpty)
        let back = PlayerID()
        #expect(try t.game.apply(.join(player: back, name: "Ann"), by: ann, at: t.now) == [.playerJoined(back)])
    }

    @Test func leavingByOneselfIsNoBan() throws {
        var t = Table()
        try t.join("Ann")
        let ann = try #require(t.users["Ann"])
        try t.by("Ann", .removePlayer(t.seat("Ann")))
        #expect(t.game.removed.isEmpty)
        let back = PlayerID()
        #expect(try t.game.apply(.join(player: back, name: "Ann"), by: ann, at: t.now) == [.playerJoined(back)])
    }

    @Test func theRemovalIsStoredWithTheGame() throws {
        var t = Table()
        try t.join("Ann")
        try t.host(.removePlayer(t.seat("Ann")))
        // As the store keeps it: the snapshot as JSON.
        let stored = try JSONDecoder().decode(GameSnapshot.self, from: try JSONEncoder().encode(t.game.snapshot))
        let restored = Game(snapshot: stored, players: t.game.seated, guesses: t.game.allGuesses)
        #expect(restored.removed == t.game.removed)
        #expect(restored.isRemoved(try #require(t.users["Ann"])))
    }
}
