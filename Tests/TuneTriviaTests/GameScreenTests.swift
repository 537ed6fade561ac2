import Foundation
import JukeCore
import Testing

@testable import TuneTrivia

/// A big room: what each screen lists, and which events redraw which screens.
@Suite(.timeLimit(.minutes(5))) struct GameScreenTests {
    /// A party game with `count` players who have all answered the first song, some right.
    static func bigGame(_ count: Int) throws -> Table {
        var t = Table(songs: [("Dancing Queen", "ABBA")])
        for i in 0..<count { try t.join("Player \(i)") }
        try t.host(.start)
        for i in 0..<count {
            // Every third one knows the song; player 7 comes close on the artist.
            try t.guess("Player \(i)", artist: i == 7 ? "aba" : "", song: i % 3 == 0 ? "Dancing Queen" : "no idea")
        }
        return t
    }

    @Test func aPlayerSeesTheLeadersAndThemselvesNotTheWholeRoom() throws {
        var t = try Self.bigGame(300)
        try t.host(.reveal)
        let screen = GameScreen(t.game)
        #expect(screen.crowd.playerCount == 300 && screen.crowd.players.count == GameScreen.scoreboardSize)
        // Player 1 got nothing: listed after the leaders, with their own rank and guess.
        let view = screen.view(for: t.users["Player 1"])
        #expect(view.players.count == GameScreen.scoreboardSize + 1)
        #expect(view.players.last?.displayName == "Player 1" && view.players.last?.rank == 101)
        #expect(view.guesses.map(\.player) == [t.seat("Player 1")] && view.guesses.first?.points == 0)
        // Player 0 leads (joined first among the scorers): listed once, in place.
        let leader = screen.view(for: t.users["Player 0"])
        #expect(leader.players.count == GameScreen.scoreboardSize && leader.players.first?.id == t.seat("Player 0"))
        #expect(leader.players.first?.hasGuessed == true && leader.you == t.seat("Player 0"))
        // The whole list is still there for whoever asks for it.
        #expect(screen.allPlayers(for: t.users["Player 1"]).count == 301)
    }

    /// A reveal changes the guesses and scores where they lie; the copy of the game that a
    /// server's cache or a frame being pushed still holds must not change with them.
    @Test func aRevealLeavesOtherCopiesOfTheGameAsTheyWere() throws {
        var t = try Self.bigGame(300)
        let before = t.game
        try t.host(.reveal)
        let round = try #require(t.game.round?.id)
        let scored = (0..<300).filter { t.score("Player \($0)") ?? 0 > 0 }
        #expect(scored == Array(stride(from: 0, to: 300, by: 3)))
        #expect(t.game.guesses[round]?.values.filter { $0.points > 0 }.count == 100)
        #expect(before.guesses[round]?.values.allSatisfy { $0.points == 0 } == true)
        #expect(before.seated.allSatisfy { $0.score == Score() })
        #expect(t.game.players[t.seat("Player 3")]?.score.songs == 1 && before.players[t.seat("Player 3")]?.score.songs == 0)
        // Equal scores share a rank; among them, who joined first comes first.
        let standings = GameScreen(t.game).crowd.players
        #expect(standings.prefix(3).map(\.displayName) == ["Player 0", "Player 3", "Player 6"])
        #expect(standings.prefix(3).map(\.rank) == [1, 1, 1])
    }

    /// One person's view (a REST reply) finds the first places without sorting the room, and
    /// counts the viewer's rank when they are further down: the same view as the screen
    /// built for everyone gives, before and after a reveal, at every kind of place.
    @Test func oneViewIsTheSameAsTheWholeScreens() throws {
        var t = try Self.bigGame(300)
        for phase in 0..<2 {
            if phase == 1 { try t.host(.reveal) }
            let screen = GameScreen(t.game)
            // The leader, one tied with them, the edges of the scoreboard and of the host's
            // list, one far down among equals, and the last to join.
            let players = [0, 3, 9, 10, 19, 20, 57, 60, 99, 100, 101, 150, 299].map { "Player \($0)" }
            for viewer in players.compactMap({ t.users[$0] }) + [t.host, UserID()] {
                #expect(t.game.view(for: viewer) == screen.view(for: viewer))
            }
            #expect(t.game.view(for: nil) == screen.view(for: nil))
        }
        // A player far down the room is told where they stand, not where the list ends.
        let last = try #require(t.users["Player 299"])
        #expect(t.game.view(for: last).players.last?.rank == 101)
    }

    @Test func theHostSeesCountsAndNearMissesToRuleOnFirst() throws {
        var t = try Self.bigGame(300)
        let before = t.game.view(for: t.host)
        #expect(before.answeredCount == 300 && before.playerCount == 300)
        #expect(before.guesses.count == GameScreen.hostListSize && before.players.count == GameScreen.hostListSize + 1)
        // Answers given at the same moment are listed in joining order.
        #expect(before.guesses.map(\.player) == (0..<GameScreen.hostListSize).map { t.seat("Player \($0)") })
        try t.host(.reveal)
        let after = t.game.view(for: t.host)
        #expect(after.guesses.first?.player == t.seat("Player 7") && after.guesses.first?.artistVerdict == .nearMiss)
        #expect(after.guesses.dropFirst().prefix(7).map(\.player) == [0, 1, 2, 3, 4, 5, 6].map { t.seat("Player \($0)") })
    }

    /// `view(for:)` of a player is the crowd's view plus their personal parts: a server may
    /// send the shared part to everyone and add each one's own.
    @Test func aPlayersViewIsTheCrowdsPlusTheirOwn() throws {
        var t = try Self.bigGame(40)
        for phase in 0..<2 {
            if phase == 1 { try t.host(.reveal) }
            let screen = GameScreen(t.game)
            for i in [0, 1, 3, 39] {
                let user = try #require(t.users["Player \(i)"])
                let mine = screen.personal(for: user)
                let seat = try #require(mine.seat)
                let players = mine.isListed ? screen.crowd.players.map { $0.id == seat.id ? seat : $0 } : screen.crowd.players + [seat]
                #expect(screen.view(for: user) == screen.crowd.with(you: seat.id, players: players, guesses: mine.guess.map { [$0] } ?? []))
            }
            #expect(screen.view(for: UserID()) == screen.crowd)
        }
    }

    @Test func eventsReachOnlyTheScreensTheyChange() throws {
        var t = Table()
        #expect(try t.by("Ann", .join(player: PlayerID(), name: "Ann")).map(\.reach).allSatisfy { if case .seats = $0 { true } else { false } })
        try t.join("Bob")
        try t.host(.start)
        #expect(try t.by("Bob", .guess(player: t.seat("Bob"), artist: "Queen", song: "")).map(\.reach) == [.seats(t.seat("Bob"))])
        #expect(try t.host(.reveal).map(\.reach).allSatisfy { $0 == .everyone })
    }

    /// Everyone counts down the same clip: its end is set when it starts, a pause freezes
    /// what is left, and Resume moves the end by the length of the pause. Players see how
    /// many have answered, not who.
    @Test func everyoneSeesTheCountdownAndHowManyAnswered() throws {
        var t = Table()  // 20-second clips
        try t.join("Ann", "Bob")
        try t.host(.start)
        let started = t.now
        let clip = Double(t.game.settings.secondsPerSong)
        #expect(GameScreen(t.game).crowd.round?.clipEndsAt == started.addingTimeInterval(clip))
        t.now = started.addingTimeInterval(10)
        try t.host(.pause)
        let paused = GameScreen(t.game).crowd.round
        #expect(paused?.clipEndsAt == nil && paused?.clipSecondsLeft == clip - 10)
        t.now = started.addingTimeInterval(70)
        try t.host(.resume)
        #expect(GameScreen(t.game).view(for: t.users["Ann"]).round?.clipEndsAt == started.addingTimeInterval(clip + 60))
        #expect(GameScreen(t.game).crowd.answeredCount == 0)
        try t.guess("Bob", artist: "Queen", song: "")
        let crowd = GameScreen(t.game).crowd
        #expect(crowd.answeredCount == 1 && crowd.guesses.isEmpty)
        // Stored and restored, the pause is kept.
        try t.host(.pause)
        let restored = Game(snapshot: t.game.snapshot, players: t.game.seated, guesses: t.game.allGuesses)
        #expect(restored.roundView(try #require(restored.round), forHost: false).clipSecondsLeft == clip - 10)
        // After the reveal there is nothing to count down.
        try t.host(.resume)
        try t.host(.reveal)
        #expect(GameScreen(t.game).crowd.round?.clipEndsAt == nil)
    }

    /// Seats are found by account and names checked without reading every seat; the
    /// indexes follow players who leave.
    @Test func seatsAndNamesFollowJoinsAndLeaves() throws {
        var t = Table()
        try t.join("Ann", "Bob")
        #expect(t.game.player(forUser: try #require(t.users["Bob"]))?.id == t.seat("Bob"))
        #expect(throws: GameError.self) { try t.by("Cy", .join(player: PlayerID(), name: "ann")) }
        try t.by("Bob", .removePlayer(t.seat("Bob")))
        #expect(t.game.player(forUser: try #require(t.users["Bob"])) == nil && !t.game.isNameTaken("Bob"))
        try t.join("Bob")
        #expect(t.game.player(forUser: try #require(t.users["Bob"]))?.displayName == "Bob")
    }
}

/// The host's list picks its first hundred without sorting the room: the same as sorting.
@Suite(.timeLimit(.minutes(5))) struct LeadersTests {
    @Test(arguments: [0, 1, 5, 100])
    func picksWhatSortingWouldPutFirst(count: Int) {
        var random = SplitMix64(seed: UInt64(count + 7))
        for size in [0, 3, 100, 101, 2_000] {
            let keys = (0..<size).map { _ in (Int.random(in: 0...1, using: &random), Int.random(in: 0..<50, using: &random)) }
            var leaders = Leaders<(Int, Int), Int>(count: count, before: <)
            for (i, key) in keys.enumerated() { leaders.offer(key, i) }
            // Equal keys keep their order: the index breaks ties.
            let expected = keys.enumerated().sorted { ($0.element.0, $0.element.1, $0.offset) < ($1.element.0, $1.element.1, $1.offset) }
            #expect(leaders.items == expected.prefix(count).map(\.offset), "count \(count), size \(size)")
        }
    }
}
