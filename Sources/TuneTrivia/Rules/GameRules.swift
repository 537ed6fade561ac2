public import Foundation
public import JukeCore
import Matching

/// The rules of TuneTrivia. Who may do what, when, and what it scores.
extension Game {
    /// Applies `command`, issued by `user` at `now`, and returns what happened. Refused
    /// commands change nothing.
    public mutating func apply(_ command: Command, by user: UserID, at now: Date) throws(GameError) -> [GameEvent] {
        let isHost = user == host
        func requireHost() throws(GameError) { try self.requireHost(user) }
        switch command {
        case .updateSettings(let new):
            try requireHost()
            guard status == .lobby else { throw .conflict("Settings change only in the lobby.") }
            try new.validate()
            if new.mode != settings.mode, seating.count > 1 { throw .conflict("The mode changes only before anyone joins.") }
            if new.numSongs < rounds.count { throw .invalid("num_songs", "The game already has \(rounds.count) songs; remove some first.") }
            settings = new
            return [.settingsChanged]

        case .join(let id, let name):
            guard settings.mode == .party else { throw .conflict("This game is in host mode: the host seats the players.") }
            guard status != .ended else { throw .conflict("This game has ended.") }
            if let existing = player(forUser: user) { return existing.id == id ? [] : [.playerJoined(existing.id)] }
            if isRemoved(user) { throw .forbidden("The host removed you from this game. Ask them to let you back in.") }
            let name = try Self.checkName(name)
            if isNameTaken(name) { throw .conflict("Someone in this game is already called \(name).") }
            seat(Player(id: id, user: user, displayName: name, isHost: false, isManual: false, joinedAt: now))
            return [.playerJoined(id)]

        case .addManualPlayer(let id, let name):
            try requireHost()
            guard settings.mode == .host else { throw .conflict("Players join by themselves in party mode.") }
            guard status != .ended else { throw .conflict("This game has ended.") }
            let name = try Self.checkName(name)
            if isNameTaken(name) { throw .conflict("Someone in this game is already called \(name).") }
            seat(Player(id: id, user: nil, displayName: name, isHost: false, isManual: true, joinedAt: now))
            return [.playerJoined(id)]

        case .removePlayer(let id):
            guard let p = players[id] else { throw .notFound("No such player in this game.") }
            // The host removes anyone but themselves; a player may leave.
            guard isHost || p.user == user else { throw .forbidden("Only the host can remove other players.") }
            guard !p.isHost else { throw .conflict("The host cannot leave their own game; end it instead.") }
            unseat(id)
            // Taken out by the host, an account stays out until the host lets it back; leaving
            // by oneself is no ban.
            if isHost, let account = p.user { remember(RemovedPlayer(player: id, user: account, displayName: p.displayName)) }
            return [.playerLeft(id), .scoresChanged]

        case .letBack(let id):
            try requireHost()
            guard forgetRemoved(id) else { throw .notFound("Nobody removed from this game has that seat.") }
            return [.letBack(id)]

        case .addRound(let round):
            try requireHost()
            guard status == .lobby else { throw .conflict("Songs are added in the lobby.") }
            guard rounds.count < settings.numSongs else { throw .conflict("The game already has its \(settings.numSongs) songs.") }
            guard !rounds.contains(where: { $0.track == round.track }) else { throw .conflict("That song is already in the game.") }
            var r = round
            r.number = rounds.count + 1
            r.phase = .pending
            appendRound(r)
            return [.roundsChanged]

        case .removeRound(let id):
            try requireHost()
            guard let index = rounds.firstIndex(where: { $0.id == id }) else { throw .notFound("No such round.") }
            guard status == .lobby else { throw .conflict("Songs are removed in the lobby.") }
            removeRound(at: index)
            return [.roundsChanged]

        case .setTrivia(let id, let trivia):
            try requireHost()
            guard let index = rounds.firstIndex(where: { $0.id == id }) else { throw .notFound("No such round.") }
            guard rounds[index].phase == .pending else { throw .conflict("Trivia is set before the round is played.") }
            if let problem = trivia.check() { throw .invalid("trivia", "Unusable trivia: \(problem).") }
            updateRound(at: index) { $0.trivia = trivia }
            return [.roundsChanged]

        case .start:
            try requireHost()
            guard status == .lobby else { throw .conflict("The game has already started.") }
            guard !rounds.isEmpty else { throw .conflict("Add at least one song first.") }
            guard seated.contains(where: { !$0.isHost }) else { throw .conflict("Wait for at least one player.") }
            status = .active
            startedAt = now
            return [.started] + beginRound(1, at: now)

        case .pause:
            try requireHost()
            guard status == .active else { throw .conflict("Only a running game can be paused.") }
            status = .paused
            pausedAt = now
            return [.paused]

        case .resume:
            try requireHost()
            guard status == .paused else { throw .conflict("The game is not paused.") }
            status = .active
            // The clip's countdown stood still while paused: its end moves by the pause.
            if let since = pausedAt, let index = currentIndex, rounds[index].phase == .playing {
                updateRound(at: index) { $0.pausedFor = ($0.pausedFor ?? 0) + max(0, now.timeIntervalSince(since)) }
            }
            pausedAt = nil
            return [.resumed]

        case .end:
            try requireHost()
            guard status != .ended else { throw .conflict("The game has already ended.") }
            return finish(at: now)

        case .reveal:
            try requireHost()
            guard status == .active, let index = currentIndex else { throw .conflict("No round is being played.") }
            guard rounds[index].phase == .playing else { throw .conflict("This round is already revealed.") }
            updateRound(at: index) {
                $0.phase = .revealed
                $0.revealedAt = now
            }
            rescore(round: rounds[index].id)
            // Without trivia, the round is over at the reveal.
            if rounds[index].trivia == nil { updateRound(at: index) { $0.phase = .closed } }
            return [.revealed(currentRound), .scoresChanged]

        case .revealTrivia:
            try requireHost()
            guard status == .active, let index = currentIndex else { throw .conflict("No round is being played.") }
            guard rounds[index].trivia != nil else { throw .conflict("This round has no trivia.") }
            guard rounds[index].phase == .revealed else {
                throw .conflict(rounds[index].phase == .playing ? "Reveal the song first." : "The trivia is already revealed.")
            }
            updateRound(at: index) { $0.phase = .closed }
            rescore(round: rounds[index].id)
            return [.triviaRevealed(currentRound), .scoresChanged]

        case .nextRound:
            try requireHost()
            guard status == .active, let index = currentIndex else { throw .conflict("No round is being played.") }
            guard rounds[index].isRevealed else { throw .conflict("Reveal this round before the next one.") }
            var events: [GameEvent] = []
            if rounds[index].phase == .revealed {
                // Moving on closes the trivia: its answers count now.
                updateRound(at: index) { $0.phase = .closed }
                rescore(round: rounds[index].id)
                events += [.triviaRevealed(currentRound), .scoresChanged]
            }
            if currentRound >= rounds.count { return events + finish(at: now) }
            return events + beginRound(currentRound + 1, at: now)

        case .guess(let id, let artist, let song):
            let (p, index) = try playerTurn(id, user: user)
            guard settings.mode == .party else { throw .conflict("In host mode the host scores the players.") }
            guard rounds[index].phase == .playing else { throw .conflict("Guesses are closed: the answer is out.") }
            try requireAnswerTime(at: now)
            let round = rounds[index]
            if let g = guesses[round.id]?[p.id], g.submittedAt != nil { throw .conflict("You have already guessed this round.") }
            let artist = try Self.checkGuess(artist, field: "artist")
            let song = try Self.checkGuess(song, field: "song")
            guard !artist.isEmpty || !song.isEmpty else { throw .invalid("guess", "Name the artist, the song or both.") }
            let judge = GuessJudge(threshold: Double(settings.matchThreshold))
            let a = judge.judge(guess: artist, answer: round.answer.artist, field: .artist, aliases: round.answer.artistAliases)
            let s = judge.judge(guess: song, answer: round.answer.title, field: .title, aliases: round.answer.titleAliases)
            var g = Guess(round: round.id, player: p.id)
            g.artistGuess = artist
            g.songGuess = song
            g.artistVerdict = Guess.Verdict(a.verdict)
            g.songVerdict = Guess.Verdict(s.verdict)
            g.artistReason = a.reason
            g.songReason = s.reason
            g.artistCorrect = a.verdict == .correct
            g.songCorrect = s.verdict == .correct
            g.submittedAt = now
            g.secondsIn = round.startedAt.map { max(0, now.timeIntervalSince($0)) }
            setGuess(g)
            return [.guessAccepted(p.id)]

        case .answerTrivia(let id, let option):
            let (p, index) = try playerTurn(id, user: user)
            guard settings.mode == .party else { throw .conflict("In host mode the host scores the players.") }
            let round = rounds[index]
            guard let trivia = round.trivia else { throw .conflict("This round has no trivia.") }
            guard round.phase == .revealed else {
                throw .conflict(round.phase == .playing ? "Trivia opens after the reveal." : "The trivia answer is out.")
            }
            guard trivia.options.contains(option) else { throw .invalid("option", "Choose one of the four options.") }
            var g = guesses[round.id]?[p.id] ?? Guess(round: round.id, player: p.id)
            guard g.triviaGuess == nil else { throw .conflict("You have already answered this trivia.") }
            g.triviaGuess = option
            g.triviaCorrect = option == trivia.answer
            setGuess(g)
            return [.guessAccepted(p.id)]

        case .score(let id, let artist, let song, let trivia):
            try requireHost()
            guard settings.mode == .host else { throw .conflict("In party mode the players' guesses are scored.") }
            guard status == .active || status == .paused, let index = currentIndex else { throw .conflict("No round is being played.") }
            guard let p = players[id], !p.isHost else { throw .notFound("No such player in this game.") }
            if trivia, rounds[index].trivia == nil { throw .invalid("trivia", "This round has no trivia.") }
            var g = guesses[rounds[index].id]?[id] ?? Guess(round: rounds[index].id, player: id)
            g.artistCorrect = artist
            g.songCorrect = song
            g.triviaCorrect = trivia
            g.submittedAt = g.submittedAt ?? now
            setGuess(g)
            rescore(round: rounds[index].id, players: [id])
            return [.scored(id), .scoresChanged]

        case .acceptNearMiss(let id, let field):
            try requireHost()
            guard let index = currentIndex, rounds[index].isRevealed else { throw .conflict("Near misses are accepted after the reveal.") }
            guard var g = guesses[rounds[index].id]?[id] else { throw .notFound("That player did not guess this round.") }
            switch field {
            case .artist:
                guard g.artistVerdict == .nearMiss else { throw .conflict("That artist guess was not a near miss.") }
                g.artistCorrect = true
            case .song:
                guard g.songVerdict == .nearMiss else { throw .conflict("That song guess was not a near miss.") }
                g.songCorrect = true
            }
            setGuess(g)
            rescore(round: rounds[index].id, players: [id])
            return [.scored(id), .scoresChanged]
        }
    }

    // MARK: - Checks the server makes before work that is not a command

    /// Host-only actions that start outside the rules (writing trivia, picking songs,
    /// deleting the game, playing the clip) are refused here, the same way.
    public func requireHost(_ user: UserID) throws(GameError) {
        if user != host { throw .forbidden("Only the host can do that.") }
    }

    /// Reading the game (its state, players, rounds, scoreboard, live updates) is for the
    /// people in it: the host and the seated players. Anyone else is told there is no such
    /// game, so that an id is neither confirmed nor its invite code shown; a newcomer joins by
    /// the invite code, and the big screen reads through its own pairing token.
    public func requireMember(_ user: UserID) throws(GameError) {
        if user != host && player(forUser: user) == nil { throw .notFound("No such game.") }
    }

    /// The user's own seat, for a guess: the host has none, nor has someone who has not joined.
    public func guessingSeat(of user: UserID) throws(GameError) -> Player {
        guard let seat = player(forUser: user), !seat.isHost else { throw .forbidden("Join the game before guessing.") }
        return seat
    }

    // MARK: - Helpers

    var currentIndex: Int? { currentRound >= 1 && currentRound <= rounds.count ? currentRound - 1 : nil }

    /// The player, checked to be the caller's own seat, and the current round's index.
    private func playerTurn(_ id: PlayerID, user: UserID) throws(GameError) -> (Player, Int) {
        guard let p = players[id] else { throw .notFound("No such player in this game.") }
        guard p.user == user, !p.isHost else { throw .forbidden("That is not your seat.") }
        guard status == .active, let index = currentIndex else {
            throw .conflict(status == .paused ? "The game is paused." : "No round is being played.")
        }
        return (p, index)
    }

    private mutating func beginRound(_ number: Int, at now: Date) -> [GameEvent] {
        currentRound = number
        updateRound(at: number - 1) {
            $0.phase = .playing
            $0.startedAt = now
        }
        return [.roundStarted(number)]
    }

    private mutating func finish(at now: Date) -> [GameEvent] {
        status = .ended
        pausedAt = nil
        endedAt = now
        return [.ended]
    }

    /// Recomputes the points of a round's guesses (of some players, or all) and the totals
    /// of the players concerned. Points count once the answer is out (party mode) or as soon
    /// as the host taps (host mode); trivia once its answer is out.
    ///
    /// A reveal does this for every player in the room, ten thousand of them, before anyone
    /// sees the answer: the round's guesses are walked and changed where they lie (no lookup
    /// for each), and only the players whose guess now counts differently are looked up,
    /// once each. Their other rounds are not read: each guess keeps what it added.
    mutating func rescore(round id: RoundID, players only: [PlayerID]? = nil) {
        guard let round = rounds.first(where: { $0.id == id }) else { return }
        let settings = settings
        // The round's guesses as they count now, and each changed one's change to its
        // player's points and counts: taken off what it added last time, the new added.
        var changes: [(player: PlayerID, points: Int, counts: Tally)] = []
        reviseGuesses(round: id, players: only) { guess in
            var new = guess
            new.points = Self.points(for: guess, in: round, settings: settings)
            new.counted = Self.tally(new, in: round, settings: settings)
            guard new.points != guess.points || new.counted != guess.counted else { return nil }
            changes.append((guess.player, new.points - guess.points, new.counted - guess.counted))
            return new
        }
        for (player, points, counts) in changes {
            guard var score = players[player]?.score else { continue }
            score.total += points
            score.artists += counts.artists
            score.songs += counts.songs
            score.trivia += counts.trivia
            setScore(player, score)
        }
    }

    /// What one guess adds to its player's counts: the fields of rounds whose points count.
    private static func tally(_ g: Guess, in round: Round, settings: Settings) -> Tally {
        var tally = Tally()
        guard g.points > 0 || settings.mode == .host else { return tally }
        let open = settings.mode == .host || round.isRevealed
        if open, g.artistCorrect { tally.artists = 1 }
        if open, g.songCorrect { tally.songs = 1 }
        if settings.mode == .host || round.phase == .closed, g.triviaCorrect { tally.trivia = 1 }
        return tally
    }

    private static func points(for g: Guess, in round: Round, settings: Settings) -> Int {
        let open = settings.mode == .host || round.isRevealed
        let triviaOpen = settings.mode == .host || round.phase == .closed
        var points = 0
        let fast = settings.speedBonus > 0 && (g.secondsIn ?? .infinity) <= Double(settings.secondsPerSong) / 2
        if open, g.artistCorrect { points += settings.pointsArtist + (fast ? settings.speedBonus : 0) }
        if open, g.songCorrect { points += settings.pointsSong + (fast ? settings.speedBonus : 0) }
        if triviaOpen, g.triviaCorrect, round.trivia != nil { points += settings.pointsTrivia }
        return points
    }

    static func checkName(_ raw: String) throws(GameError) -> String {
        let name = Whitespace.trimmed(raw)
        guard Player.nameLength.contains(name.count) else { throw .invalid("display_name", "A name has 1 to 50 characters.") }
        return name
    }

    static func checkGuess(_ raw: String, field: String) throws(GameError) -> String {
        let text = Whitespace.trimmed(raw)
        guard text.count <= 255 else { throw .invalid(field, "A guess has at most 255 characters.") }
        return text
    }
}

extension Guess.Verdict {
    init(_ verdict: GuessJudge.Verdict) {
        switch verdict {
        case .correct: self = .correct
        case .nearMiss: self = .nearMiss
        case .wrong: self = .wrong
        }
    }
}
