import Foundation
import JukeCore
import Testing

@testable import TuneTrivia

/// Before the reveal, nothing a player can see names the song.
@Suite(.timeLimit(.minutes(5))) struct GameViewTests {
    /// Every string in the encoded view, for looking for the answer anywhere in it.
    static func json(_ view: GameView) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(view), as: UTF8.self)
    }

    @Test func playersSeeNoAnswerBeforeTheReveal() throws {
        var t = Table(trivia: true)
        // The host picked songs by artist: that list is the host's alone.
        var settings = t.game.settings
        settings.artists = ["Queen"]
        try t.host(.updateSettings(settings))
        try t.join("Ann", "Bob")
        try t.host(.start)
        try t.guess("Ann", artist: "queen", song: "bohemian rhapsody")
        let round = try #require(t.game.round)
        for name in ["Ann", "Bob"] {
            let view = t.game.view(for: t.users[name])
            #expect(view.round?.answer == nil && view.round?.track == nil)
            #expect(view.round?.triviaQuestion == nil && view.round?.triviaOptions == nil && view.round?.triviaAnswer == nil)
            #expect(view.round?.hasTrivia == true)
            let text = try Self.json(view)
            for secret in ["Bohemian", "Queen", "Album 0", round.track.description] {
                #expect(!text.contains(secret), "\(name)'s view contains \(secret)")
            }
            // The song's year, looked for outside the view's random IDs (a UUID may hold "1970").
            let withoutIDs = text.replacing(#/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/#, with: "")
            #expect(!withoutIDs.contains("1970"), "\(name)'s view contains the song's year")
            // Ann sees that she has answered, and her own guess without a verdict; Bob sees neither.
            #expect(view.players.first { $0.displayName == "Ann" }?.hasGuessed == (name == "Ann"))
            #expect(view.guesses.map(\.player) == (name == "Ann" ? [t.seat("Ann")] : []))
            #expect(view.guesses.allSatisfy { $0.artistVerdict == nil && $0.points == nil && $0.artistCorrect == nil })
        }
        // The host plays the clip and sees the answer and everyone's verdicts.
        let host = t.game.view(for: t.host)
        #expect(host.isHost && host.round?.answer?.title == "Bohemian Rhapsody")
        #expect(host.guesses.first?.artistVerdict == .correct)
        #expect(host.players.first { $0.displayName == "Ann" }?.hasGuessed == true && host.answeredCount == 1)

        try t.host(.reveal)
        let after = t.game.view(for: t.users["Bob"])
        #expect(after.round?.answer?.title == "Bohemian Rhapsody" && after.round?.track == round.track)
        #expect(after.round?.triviaOptions?.count == 4 && after.round?.triviaAnswer == nil)
        // Each player sees their own result: Ann's guess, now with its points.
        #expect(after.guesses.isEmpty)
        #expect(t.game.view(for: t.users["Ann"]).guesses.first?.points == 2)
        try t.host(.revealTrivia)
        #expect(t.game.view(for: t.users["Bob"]).round?.triviaAnswer == "1970")
        // Someone who is not in the game sees the game, not a seat.
        #expect(t.game.view(for: UserID()).you == nil)
    }
}

@Suite(.timeLimit(.minutes(5))) struct InviteCodeAndTriviaTests {
    @Test func codesAreSixLettersOrDigitsAndForgiving() {
        var rng = SystemRandomNumberGenerator()
        let codes = (0..<500).map { _ in InviteCode.make(using: &rng) }
        #expect(codes.allSatisfy { $0.count == 6 && $0.allSatisfy { InviteCode.unambiguous.contains($0) } })
        #expect(codes.allSatisfy { !$0.contains("O") && !$0.contains("I") })
        #expect(Set(codes).count > 490)
        #expect(InviteCode.canonical("ab-c 1o2") == "ABC102")
        #expect(InviteCode.canonical("ABCI02") == InviteCode.canonical("abc102"))
        #expect(InviteCode.canonical("ABC12") == nil && InviteCode.canonical("ABC12!") == nil && InviteCode.canonical("ABCDEFG") == nil)
    }

    /// A big screen's pairing code: eight characters, never read as an invite code, as forgiving to type.
    @Test func pairingCodesAreEightAndForgiving() {
        var rng = SystemRandomNumberGenerator()
        let codes = (0..<500).map { _ in PairingCode.make(using: &rng) }
        #expect(codes.allSatisfy { $0.count == 8 && $0.allSatisfy { InviteCode.unambiguous.contains($0) } })
        #expect(Set(codes).count == 500)
        #expect(codes.allSatisfy { PairingCode.canonical(PairingCode.display($0)) == $0 && InviteCode.canonical($0) == nil })
        #expect(PairingCode.display("K7M2QX9P") == "K7M2-QX9P")
        #expect(PairingCode.canonical("k7m2 qx9p") == "K7M2QX9P" && PairingCode.canonical("K7MO-QXIP") == "K7M0QX1P")
        #expect(PairingCode.canonical("K7M2QX9") == nil && PairingCode.canonical("K7M2QX9P!") == nil && PairingCode.canonical("ABC102") == nil)
    }

    @Test func triviaMustBeUsable() {
        let good = Trivia(question: "Which album is this song from?", options: ["A", "B", "C", "D"], answer: "B", source: "library")
        #expect(good.check() == nil)
        var t = good
        t.options = ["A", "B", "C"]
        #expect(t.check() == "there must be 4 options")
        t.options = ["A", "B", "b ", "D"]
        #expect(t.check() == "the options must be 4 distinct answers")
        t.options = ["A", "X", "C", "D"]
        #expect(t.check() == "the answer is not among the options")
        t = Trivia(question: "Was this on the album Thriller?", options: ["Thriller", "Bad", "Dangerous", "Off the Wall"], answer: "Thriller", source: "ai")
        #expect(t.check() == "the question gives the answer away")
    }
}
