public import Foundation
public import JukeCore

/// One state of a game prepared for showing to many people: the standings are sorted and
/// the crowd's view built once, so each viewer's own view costs a few lookups, not a pass
/// over ten thousand players. A player's view is the crowd's (`crowd`) plus their own
/// parts (`personal(for:)`), which lets a server encode the shared part once per change.
public struct GameScreen: Sendable {
    /// How many leaders a player's scoreboard lists: what a phone shows without scrolling,
    /// with the player's own entry after them. Every change of scores sends it to every
    /// phone in the room, over one venue's Wi-Fi: at twenty, the leaders were four fifths of
    /// a reveal's 5.5 kB message (55 MB for ten thousand players); at ten, it is 3.5 kB.
    public static let scoreboardSize = 10
    /// How many players and guesses the host's screen lists.
    public static let hostListSize = 100

    public let game: Game
    /// What a player sees that is the same for every player: their own seat, rank and
    /// guess are not in it (see `personal(for:)`).
    public let crowd: GameView
    /// Every ranked player, best first; or, on a screen for one viewer, the first places and
    /// that viewer's own (see `init(_:onlyFor:)`).
    private let standings: [(rank: Int, player: Player)]
    /// How many players are ranked: `standings.count`, unless the screen is for one viewer.
    private let rankedCount: Int
    /// Each player's place in `standings`, by their account: a viewer's own entry in one
    /// lookup (at a reveal, one for each of ten thousand players).
    private let places: [UserID: Int]
    private let roundGuesses: GuessBook

    /// A viewer's own parts of their view: their seat as a list entry and their guess.
    public struct Personal: Sendable, Equatable {
        public let seat: GameView.PlayerView?
        /// Whether `seat` is among the crowd's listed leaders (where it replaces that entry).
        public let isListed: Bool
        public let guess: GameView.GuessView?
    }

    public init(_ game: Game) {
        let standings = game.standings
        self.init(game, standings: standings, rankedCount: standings.count)
    }

    /// The screen for one viewer's view (`Game.view(for:)`, a REST reply), which lists the
    /// first hundred places at most and the viewer's own: those, found without sorting
    /// ten thousand players, and a rank counted for the viewer if they are further down.
    /// Only `view(for: viewer)` is right on it.
    init(_ game: Game, onlyFor viewer: UserID?) {
        var (standings, ranked) = game.leadingStandings(Self.hostListSize)
        if let viewer, let own = game.player(forUser: viewer), !standings.contains(where: { $0.player.id == own.id }),
            let rank = game.rank(of: own)
        {
            standings.append((rank, own))  // past the crowd's list, so shown as the viewer's own entry
        }
        self.init(game, standings: standings, rankedCount: ranked)
    }

    private init(_ game: Game, standings: [(rank: Int, player: Player)], rankedCount: Int) {
        self.game = game
        self.standings = standings
        self.rankedCount = rankedCount
        var places: [UserID: Int] = [:]
        places.reserveCapacity(standings.count)
        for (place, entry) in standings.enumerated() {
            if let user = entry.player.user { places[user] = place }
        }
        self.places = places
        roundGuesses = game.round.flatMap { game.guesses[$0.id] } ?? [:]
        crowd = GameView(
            id: game.id, title: game.settings.title, inviteCode: game.inviteCode, settings: game.settings.forPlayers, status: game.status,
            currentRound: game.currentRound, totalRounds: game.rounds.count, isHost: false, you: nil,
            round: game.round.map { game.roundView($0, forHost: false) },
            players: standings.prefix(Self.scoreboardSize).map { Self.playerView($0.player, rank: $0.rank, hasGuessed: false) },
            playerCount: rankedCount, answeredCount: Self.answered(roundGuesses), guesses: [])
    }

    /// The game as `viewer` may see it.
    public func view(for viewer: UserID?) -> GameView {
        if viewer == game.host { return hostView() }
        let mine = viewer.map(personal(for:))
        guard let mine, let seat = mine.seat else { return crowd }
        let players = mine.isListed ? crowd.players.map { $0.id == seat.id ? seat : $0 } : crowd.players + [seat]
        return crowd.with(you: seat.id, players: players, guesses: mine.guess.map { [$0] } ?? [])
    }

    /// A player's own seat and guess as they see them.
    public func personal(for viewer: UserID) -> Personal {
        // The host is not ranked, so not found here either: the host's view is `hostView`.
        guard let place = places[viewer] else { return Personal(seat: nil, isListed: false, guess: nil) }
        let (rank, p) = standings[place]
        let guess = roundGuesses[p.id]
        // The crowd lists the first places of the standings.
        return Personal(
            seat: Self.playerView(p, rank: rank, hasGuessed: guess?.submittedAt != nil), isListed: place < crowd.players.count,
            guess: guess.map { guessView($0, forHost: false) })
    }

    /// Every seat, best first then the host's, as `viewer` may see them (the players list
    /// and scoreboard endpoints, which are asked for once, not pushed to everyone).
    public func allPlayers(for viewer: UserID?) -> [GameView.PlayerView] {
        let isHost = viewer == game.host
        let you = viewer.flatMap { game.player(forUser: $0)?.id }
        let ranked = standings.map {
            Self.playerView($0.player, rank: $0.rank, hasGuessed: (isHost || $0.player.id == you) && hasGuessed($0.player.id))
        }
        let hosts = hostSeat.map { [Self.playerView($0, rank: nil, hasGuessed: false)] } ?? []
        return ranked + hosts
    }

    private func hostView() -> GameView {
        let revealed = game.round?.isRevealed ?? false
        // Near misses wait for the host's ruling once the answer is out: those first.
        let pending = { (g: Guess) in revealed && ((g.artistVerdict == .nearMiss && !g.artistCorrect) || (g.songVerdict == .nearMiss && !g.songCorrect)) }
        // Sorted by plain numbers: in a room of thousands this runs ten times a second. Only
        // the first hundred are listed: picked, not the whole room sorted. The room is walked
        // in joining order, so a guess's seat is where it is found (the last tie-break),
        // with no index of ten thousand seats built for each view. (A player who leaves
        // takes their guesses along: every guess has a seat.)
        var listed = Leaders<(Int, Double, Int), Guess>(count: Self.hostListSize, before: <)
        var answered = 0
        for (seat, id) in game.seating.enumerated() {
            guard let guess = roundGuesses[id] else { continue }
            if guess.submittedAt != nil { answered += 1 }
            guard guess.submittedAt != nil || guess.triviaGuess != nil else { continue }
            listed.offer((pending(guess) ? 0 : 1, guess.submittedAt?.timeIntervalSince1970 ?? .infinity, seat), guess)
        }
        let hosts = hostSeat.map { [Self.playerView($0, rank: nil, hasGuessed: false)] } ?? []
        return GameView(
            id: game.id, title: game.settings.title, inviteCode: game.inviteCode, settings: game.settings, status: game.status,
            currentRound: game.currentRound, totalRounds: game.rounds.count, isHost: true, you: hosts.first?.id,
            round: game.round.map { game.roundView($0, forHost: true) },
            players: standings.prefix(Self.hostListSize).map {
                Self.playerView($0.player, rank: $0.rank, hasGuessed: hasGuessed($0.player.id))
            } + hosts,
            playerCount: rankedCount, answeredCount: answered,
            guesses: listed.items.map { guessView($0, forHost: true) })
    }

    /// How many have answered the round (a trivia answer alone is not a guess).
    private static func answered(_ guesses: GuessBook) -> Int {
        var count = 0
        guesses.forEach { if $0.submittedAt != nil { count += 1 } }
        return count
    }

    /// The host's own seat (never ranked, listed last).
    private var hostSeat: Player? { game.player(forUser: game.host) }

    private func hasGuessed(_ id: PlayerID) -> Bool { roundGuesses[id]?.submittedAt != nil }

    private static func playerView(_ p: Player, rank: Int?, hasGuessed: Bool) -> GameView.PlayerView {
        GameView.PlayerView(
            id: p.id, user: p.user, displayName: p.displayName, isHost: p.isHost, isManual: p.isManual, score: p.score, rank: rank,
            hasGuessed: hasGuessed)
    }

    /// A guess as the host, or its author, may see it: verdicts and points only once the
    /// answer is out (or for the host), the trivia verdict once the trivia answer is out.
    private func guessView(_ g: Guess, forHost: Bool) -> GameView.GuessView {
        let show = forHost || (game.round?.isRevealed ?? false)
        let triviaShown = forHost || game.round?.phase == .closed
        return GameView.GuessView(
            player: g.player, artistGuess: g.artistGuess, songGuess: g.songGuess, triviaGuess: g.triviaGuess,
            artistVerdict: show ? g.artistVerdict : nil, songVerdict: show ? g.songVerdict : nil,
            artistReason: show ? g.artistReason : nil, songReason: show ? g.songReason : nil,
            artistCorrect: show ? g.artistCorrect : nil, songCorrect: show ? g.songCorrect : nil,
            triviaCorrect: triviaShown ? g.triviaCorrect : nil, points: show ? g.points : nil)
    }
}

extension GameView {
    func with(you: PlayerID? = nil, players: [PlayerView], guesses: [GuessView]? = nil) -> GameView {
        GameView(
            id: id, title: title, inviteCode: inviteCode, settings: settings, status: status, currentRound: currentRound,
            totalRounds: totalRounds, isHost: isHost, you: you ?? self.you, round: round, players: players, playerCount: playerCount,
            answeredCount: answeredCount, guesses: guesses ?? self.guesses)
    }
}
