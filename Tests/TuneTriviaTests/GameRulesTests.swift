import Foundation
import JukeCore
import Testing

@testable import TuneTrivia

/// A game as the rules see it, driven by commands with an injected clock.
struct Table {
    var game: Game
    let host = UserID()
    var now = Date(timeIntervalSince1970: 1_800_000_000)
    var users: [String: UserID] = [:]
    var seats: [String: PlayerID] = [:]

    init(mode: Settings.Mode = .party, trivia: Bool = false, speedBonus: Int = 0, songs: [(String, String)] = Table.songs) {
        var settings = Settings(title: "Friday quiz")
        settings.mode = mode
        settings.numSongs = 5
        settings.secondsPerSong = 20
        settings.triviaEnabled = trivia
        settings.speedBonus = speedBonus
        game = Game(
            id: SessionID(), host: host, hostName: "Host", hostPlayer: PlayerID(), inviteCode: "ABC123", settings: settings, at: now)
        for (i, song) in songs.enumerated() {
            let round = Round(
                id: RoundID(), track: TrackID(), number: 0, answer: Answer(title: song.0, artist: song.1, album: "Album \(i)", year: 1970 + i),
                clipStart: 30, trivia: trivia ? Table.trivia(i) : nil)
            _ = try? game.apply(.addRound(round), by: host, at: now)
        }
    }

    static let songs = [("Bohemian Rhapsody", "Queen"), ("Born to Run", "Bruce Springsteen"), ("Halo", "Beyoncé")]

    static func trivia(_ i: Int) -> Trivia {
        Trivia(
            question: "In which year did this song come out?", options: (1970...1973).map { "\($0 + i)" },
            answer: "\(1970 + i)", source: "library")
    }

    @discardableResult
    mutating func host(_ command: Command) throws -> [GameEvent] { try game.apply(command, by: host, at: now) }

    @discardableResult
    mutating func by(_ name: String, _ command: Command) throws -> [GameEvent] {
        try game.apply(command, by: users[name] ?? UserID(), at: now)
    }

    mutating func join(_ names: String...) throws {
        for name in names {
            let user = UserID(), seat = PlayerID()
            users[name] = user
            seats[name] = seat
            try game.apply(.join(player: seat, name: name), by: user, at: now)
        }
    }

    mutating func guess(_ name: String, artist: String, song: String) throws {
        try by(name, .guess(player: seat(name), artist: artist, song: song))
    }

    /// The seat of a player who joined; a stranger's seat otherwise, which the rules refuse.
    func seat(_ name: String) -> PlayerID { seats[name] ?? PlayerID() }

    func score(_ name: String) -> Int? { game.players[seat(name)]?.score.total }

    mutating func wait(_ seconds: Double) { now += seconds }
}

@Suite(.timeLimit(.minutes(5))) struct GameRulesTests {
    @Test func aPartyGameFromLobbyToPodium() throws {
        var t = Table()
        try t.join("Ann", "Bob", "Cy")
        #expect(t.game.seated.count == 4)
        #expect(try t.host(.start) == [.started, .roundStarted(1)])
        #expect(t.game.status == .active && t.game.round?.phase == .playing)

        try t.guess("Ann", artist: "queen", song: "bohemian rapsody")  // both right, a typo forgiven
        try t.guess("Bob", artist: "Queens of the Stone Age", song: "")  // wrong
        try t.guess("Cy", artist: "", song: "bohemian")  // a near miss
        // Nothing counts before the reveal.
        #expect(t.score("Ann") == 0)
        #expect(try t.host(.reveal) == [.revealed(1), .scoresChanged])
        #expect((t.score("Ann"), t.score("Bob"), t.score("Cy")) == (2, 0, 0))
        #expect(t.game.round?.phase == .closed, "without trivia the round is over at the reveal")

        // The host accepts Cy's near miss.
        try t.host(.acceptNearMiss(player: t.seat("Cy"), field: .song))
        #expect(t.score("Cy") == 1)
        #expect(throws: GameError.self) { try t.host(.acceptNearMiss(player: t.seat("Bob"), field: .artist)) }

        try t.host(.nextRound)
        try t.guess("Bob", artist: "springsteen", song: "born to run")
        try t.host(.reveal)
        try t.host(.nextRound)
        try t.guess("Cy", artist: "beyonce", song: "halo")
        try t.host(.reveal)
        #expect(try t.host(.nextRound) == [.ended])
        #expect(t.game.status == .ended)
        let podium = t.game.standings.map { ($0.rank, $0.player.displayName, $0.player.score.total) }
        // Ann 2, Bob 2, Cy 3: Cy first, then Ann and Bob tied for second.
        #expect(podium.map(\.0) == [1, 2, 2])
        #expect(podium.map(\.1) == ["Cy", "Ann", "Bob"])
        #expect(
            t.game.players[t.seat("Cy")]?.score
                == {
                    var s = Score()
                    s.total = 3
                    s.artists = 1
                    s.songs = 2
                    return s
                }())
    }

    @Test func oneGuessPerRoundAndOnlyWhileTheClipPlays() throws {
        var t = Table()
        try t.join("Ann", "Bob")
        #expect(throws: GameError.conflict("No round is being played.")) { try t.guess("Ann", artist: "queen", song: "") }
        try t.host(.start)
        try t.guess("Ann", artist: "queen", song: "")
        #expect(throws: GameError.conflict("You have already guessed this round.")) { try t.guess("Ann", artist: "queen", song: "bohemian rhapsody") }
        try t.host(.pause)
        #expect(throws: GameError.conflict("The game is paused.")) { try t.guess("Bob", artist: "queen", song: "") }
        try t.host(.resume)
        try t.host(.reveal)
        #expect(throws: GameError.conflict("Guesses are closed: the answer is out.")) { try t.guess("Bob", artist: "queen", song: "") }
        #expect(throws: GameError.self) { try t.guess("Bob", artist: "", song: "  ") }
        #expect(throws: GameError.invalid("artist", "A guess has at most 255 characters.")) {
            try t.host(.nextRound)
            try t.guess("Bob", artist: String(repeating: "x", count: 256), song: "")
        }
    }

    @Test func onlyTheHostRunsTheGame() throws {
        var t = Table()
        try t.join("Ann")
        let hostOnly: [Command] = [
            .start, .pause, .resume, .end, .reveal, .revealTrivia, .nextRound, .updateSettings(t.game.settings),
            .addManualPlayer(player: PlayerID(), name: "X"), .removeRound(t.game.rounds[0].id),
            .addRound(Round(id: RoundID(), track: TrackID(), number: 0, answer: Answer(title: "a", artist: "b", album: "c"), clipStart: 0)),
            .score(player: t.seat("Ann"), artist: true, song: true, trivia: false), .acceptNearMiss(player: t.seat("Ann"), field: .song),
            .removePlayer(PlayerID()),
        ]
        for command in hostOnly {
            let before = t.game
            do {
                try t.by("Ann", command)
                Issue.record("a player could \(command)")
            } catch let error as GameError {
                #expect(error == .forbidden("Only the host can do that.") || error == .notFound("No such player in this game."), "\(command): \(error)")
            }
            #expect(t.game == before, "a refused command changes nothing")
        }
        // A player cannot guess in someone else's seat.
        try t.host(.start)
        try t.join("Bob")
        #expect(throws: GameError.forbidden("That is not your seat.")) { try t.by("Bob", .guess(player: t.seat("Ann"), artist: "queen", song: "")) }
        // But may leave.
        try t.by("Bob", .removePlayer(t.seat("Bob")))
        #expect(t.game.players[t.seat("Bob")] == nil)
    }

    @Test func triviaCountsAfterItsRevealAndOnlyOnce() throws {
        var t = Table(trivia: true)
        try t.join("Ann", "Bob")
        try t.host(.start)
        #expect(throws: GameError.conflict("Trivia opens after the reveal.")) { try t.by("Ann", .answerTrivia(player: t.seat("Ann"), option: "1970")) }
        try t.guess("Ann", artist: "queen", song: "")
        try t.host(.reveal)
        #expect(t.game.round?.phase == .revealed)
        try t.by("Ann", .answerTrivia(player: t.seat("Ann"), option: "1970"))
        try t.by("Bob", .answerTrivia(player: t.seat("Bob"), option: "1972"))
        #expect(throws: GameError.conflict("You have already answered this trivia.")) {
            try t.by("Bob", .answerTrivia(player: t.seat("Bob"), option: "1970"))
        }
        #expect(throws: GameError.invalid("option", "Choose one of the four options.")) {
            try t.by("Ann", .answerTrivia(player: t.seat("Ann"), option: "1999"))
        }
        #expect(t.score("Ann") == 1, "the trivia point waits for the trivia reveal")
        try t.host(.revealTrivia)
        #expect((t.score("Ann"), t.score("Bob")) == (2, 0))
        #expect(t.game.players[t.seat("Ann")]?.score.trivia == 1)
        // Moving on without revealing the trivia closes it too.
        try t.host(.nextRound)
        try t.host(.reveal)
        try t.by("Bob", .answerTrivia(player: t.seat("Bob"), option: "1971"))
        #expect(try t.host(.nextRound) == [.triviaRevealed(2), .scoresChanged, .roundStarted(3)])
        #expect(t.score("Bob") == 1)
    }

    @Test func hostModeScoresByTapsAndSeatsNamesWithoutAccounts() throws {
        var t = Table(mode: .host)
        #expect(throws: GameError.self) { try t.join("Ann") }
        let dad = PlayerID(), mum = PlayerID()
        try t.host(.addManualPlayer(player: dad, name: "Dad"))
        try t.host(.addManualPlayer(player: mum, name: "Mum"))
        #expect(throws: GameError.conflict("Someone in this game is already called mum.")) { try t.host(.addManualPlayer(player: PlayerID(), name: "mum")) }
        try t.host(.start)
        try t.host(.score(player: dad, artist: true, song: false, trivia: false))
        try t.host(.score(player: mum, artist: true, song: true, trivia: false))
        // A second tap corrects the first rather than adding to it.
        try t.host(.score(player: mum, artist: false, song: true, trivia: false))
        #expect(t.game.players[dad]?.score.total == 1)
        #expect(t.game.players[mum]?.score.total == 1)
        #expect(t.game.players[mum]?.isManual == true && t.game.players[mum]?.user == nil)
        #expect(throws: GameError.invalid("trivia", "This round has no trivia.")) { try t.host(.score(player: dad, artist: true, song: true, trivia: true)) }
        try t.host(.end)
        #expect(t.game.status == .ended)
        #expect(throws: GameError.conflict("The game has already ended.")) { try t.host(.end) }
    }

    @Test func speedEarnsNothingUnlessTheHostSaysSo() throws {
        for bonus in [0, 2] {
            var t = Table(speedBonus: bonus)
            try t.join("Fast", "Slow")
            try t.host(.start)
            t.wait(3)
            try t.guess("Fast", artist: "queen", song: "bohemian rhapsody")
            t.wait(15)  // past half of the 20 s clip
            try t.guess("Slow", artist: "queen", song: "bohemian rhapsody")
            try t.host(.reveal)
            #expect(t.score("Fast") == 2 + 2 * bonus)
            #expect(t.score("Slow") == 2)
        }
    }

    @Test func theLobbyRules() throws {
        var t = Table()
        #expect(throws: GameError.conflict("Wait for at least one player.")) { try t.host(.start) }
        let duplicate = Round(id: RoundID(), track: t.game.rounds[0].track, number: 0, answer: t.game.rounds[0].answer, clipStart: 0)
        #expect(throws: GameError.conflict("That song is already in the game.")) { try t.host(.addRound(duplicate)) }
        try t.host(.removeRound(t.game.rounds[1].id))
        #expect(t.game.rounds.map(\.number) == [1, 2])
        #expect(t.game.rounds.map(\.answer.artist) == ["Queen", "Beyoncé"])
        var settings = t.game.settings
        settings.numSongs = 51
        #expect(throws: GameError.invalid("num_songs", "A game has 5 to 50 songs.")) { try t.host(.updateSettings(settings)) }
        settings.numSongs = 5
        settings.secondsPerSong = 9
        #expect(throws: GameError.invalid("seconds_per_song", "A clip lasts 10 to 30 seconds.")) { try t.host(.updateSettings(settings)) }
        settings.secondsPerSong = 10
        settings.title = "  "
        #expect(throws: GameError.self) { try t.host(.updateSettings(settings)) }
        settings.title = "New name"
        try t.host(.updateSettings(settings))
        #expect(t.game.settings.title == "New name")
        try t.join("Ann")
        settings.mode = .host
        #expect(throws: GameError.conflict("The mode changes only before anyone joins.")) { try t.host(.updateSettings(settings)) }
        #expect(throws: GameError.conflict("Someone in this game is already called Ann.")) {
            t.users["Ann2"] = UserID()
            try t.by("Ann2", .join(player: PlayerID(), name: " Ann "))
        }
        // Joining twice keeps the first seat.
        #expect(try t.by("Ann", .join(player: PlayerID(), name: "Ann again")) == [.playerJoined(t.seat("Ann"))])
        #expect(t.game.seated.count == 2)
        // Five songs at most (numSongs).
        for i in 0..<3 {
            try t.host(.addRound(Round(id: RoundID(), track: TrackID(), number: 0, answer: Answer(title: "t\(i)", artist: "a", album: "b"), clipStart: 0)))
        }
        #expect(throws: GameError.conflict("The game already has its 5 songs.")) {
            try t.host(.addRound(Round(id: RoundID(), track: TrackID(), number: 0, answer: Answer(title: "x", artist: "a", album: "b"), clipStart: 0)))
        }
        try t.host(.start)
        #expect(throws: GameError.conflict("Songs are added in the lobby.")) { try t.host(.addRound(duplicate)) }
        #expect(throws: GameError.conflict("Reveal this round before the next one.")) { try t.host(.nextRound) }
    }
}

/// A rescore changes scores by what each guess adds, not by reading every round again: after
/// every command of whole games, the scores are those the game's guesses give when scored
/// from nothing (what a restarted server does).
@Suite(.timeLimit(.minutes(5))) struct IncrementalScoreTests {
    static func expectScoresMatchARestore(_ game: Game, _ step: String) {
        let restored = Game(snapshot: game.snapshot, players: game.seated, guesses: game.allGuesses)
        for player in game.seated {
            #expect(game.players[player.id]?.score == restored.players[player.id]?.score, "\(step): \(player.displayName)")
        }
    }

    @Test func partyGameWithTriviaAndNearMisses() throws {
        var t = Table(trivia: true)
        try t.join("Ann", "Bob", "Cy", "Dee")
        try t.host(.start)
        let guesses = [("Queen", "Bohemian Rhapsody"), ("Quen", "Bohemian Rapsody"), ("", "Halo"), ("Bruce", "")]
        for round in 0..<3 {
            for (i, name) in ["Ann", "Bob", "Cy", "Dee"].enumerated() where (i + round) % 4 != 3 {
                try t.guess(name, artist: guesses[(i + round) % 4].0, song: guesses[(i + round) % 4].1)
                Self.expectScoresMatchARestore(t.game, "round \(round) guess \(name)")
            }
            try t.host(.reveal)
            Self.expectScoresMatchARestore(t.game, "round \(round) reveal")
            for name in ["Ann", "Bob"] {
                for field in [Command.Field.artist, .song] { _ = try? t.host(.acceptNearMiss(player: t.seat(name), field: field)) }
                Self.expectScoresMatchARestore(t.game, "round \(round) near misses of \(name)")
            }
            for (i, name) in ["Ann", "Cy", "Dee"].enumerated() {
                try t.by(name, .answerTrivia(player: t.seat(name), option: "\(1970 + round + i % 2)"))
            }
            Self.expectScoresMatchARestore(t.game, "round \(round) trivia answers")
            if round == 1 {
                try t.host(.revealTrivia)
                Self.expectScoresMatchARestore(t.game, "round \(round) trivia revealed")
            }
            try t.host(.nextRound)
            Self.expectScoresMatchARestore(t.game, "round \(round) next")
        }
        #expect(t.game.status == .ended)
        #expect(t.game.seated.contains { $0.score.trivia > 0 } && t.game.seated.contains { $0.score.artists > 0 })
    }

    @Test func hostModeScoresTappedOnAndOff() throws {
        var t = Table(mode: .host, trivia: true)
        try t.host(.addManualPlayer(player: PlayerID(), name: "Dad"))
        try t.host(.addManualPlayer(player: PlayerID(), name: "Mum"))
        try t.host(.start)
        let dad = try #require(t.game.seated.first { $0.displayName == "Dad" }?.id)
        let mum = try #require(t.game.seated.first { $0.displayName == "Mum" }?.id)
        for round in 0..<3 {
            for (player, artist, song, trivia) in [(dad, true, true, false), (mum, false, true, true), (dad, false, true, true), (mum, true, true, true)] {
                try t.host(.score(player: player, artist: artist, song: song, trivia: trivia || round == 2))
                Self.expectScoresMatchARestore(t.game, "round \(round) taps")
            }
            try t.host(.reveal)
            Self.expectScoresMatchARestore(t.game, "round \(round) reveal")
            try t.host(.nextRound)
            Self.expectScoresMatchARestore(t.game, "round \(round) next")
        }
        #expect(t.game.players[mum]?.score.trivia == 3 && t.game.players[dad]?.score.songs == 3)
    }
}
