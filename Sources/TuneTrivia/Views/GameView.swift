public import Foundation
public import JukeCore

/// What one person may see of a game. Before a round's reveal a player's view holds nothing
/// that names the song: no title, artist, album, year, track ID or trivia (the clip is served
/// by round, not by track, so its address gives nothing away either). The host sees the
/// answer, because the host plays the clip and, in host mode, scores by it.
public struct GameView: Sendable, Equatable, Codable {
    public struct RoundView: Sendable, Equatable, Codable {
        public let id: RoundID
        public let number: Int
        public let phase: Round.Phase
        public let clipStart: Double
        public let startedAt: Date?
        /// Only once revealed, or for the host.
        public let answer: Answer?
        public let track: TrackID?
        public let triviaQuestion: String?
        public let triviaOptions: [String]?
        /// Only once the trivia is revealed, or for the host.
        public let triviaAnswer: String?
        public let hasTrivia: Bool
        /// Seen by the host, whose device alone plays the clip.
        public let forHost: Bool
        /// While the clip plays: when it ends (the server's clock), for everyone's countdown.
        public let clipEndsAt: Date?
        /// While the game is paused during the clip: the seconds it has left.
        public let clipSecondsLeft: Double?

        /// A round as the host, or a player, may see it; `seconds` is the clip's length and
        /// `pausedAt` when the game was paused, for the countdown.
        public init(_ r: Round, forHost: Bool, seconds: Int = 0, pausedAt: Date? = nil) {
            let open = forHost || r.isRevealed
            id = r.id
            number = r.number
            phase = r.phase
            clipStart = r.clipStart
            startedAt = r.startedAt
            answer = open ? r.answer : nil
            track = open ? r.track : nil
            // The question is shown after the reveal; the host sees it while preparing.
            triviaQuestion = open ? r.trivia?.question : nil
            triviaOptions = open ? r.trivia?.options : nil
            triviaAnswer = (forHost || r.phase == .closed) ? r.trivia?.answer : nil
            hasTrivia = r.trivia != nil
            self.forHost = forHost
            let ends = seconds > 0 ? r.clipEndsAt(seconds: seconds) : nil
            if let ends, let pausedAt {
                clipEndsAt = nil
                clipSecondsLeft = max(0, ends.timeIntervalSince(pausedAt))
            } else {
                clipEndsAt = ends
                clipSecondsLeft = nil
            }
        }
    }

    public struct PlayerView: Sendable, Equatable, Codable {
        public let id: PlayerID
        /// The account behind the seat (nil for a host-mode name), for the server's presence.
        public let user: UserID?
        public let displayName: String
        public let isHost: Bool
        public let isManual: Bool
        public let score: Score
        public let rank: Int?
        /// Whether the player has guessed the current round: the host sees it for everyone,
        /// a player for themselves (a thousand answers a second would otherwise redraw every
        /// phone a thousand times a second for nothing they act on).
        public let hasGuessed: Bool
    }

    /// A guess as its author (and the host, and everyone after the reveal) may see it.
    public struct GuessView: Sendable, Equatable, Codable {
        public let player: PlayerID
        public let artistGuess: String
        public let songGuess: String
        public let triviaGuess: String?
        /// Only after the reveal: verdicts and points would tell a player how close they are.
        public let artistVerdict: Guess.Verdict?
        public let songVerdict: Guess.Verdict?
        public let artistReason: String?
        public let songReason: String?
        public let artistCorrect: Bool?
        public let songCorrect: Bool?
        public let triviaCorrect: Bool?
        public let points: Int?
    }

    public let id: SessionID
    public let title: String
    public let inviteCode: String
    public let settings: Settings
    public let status: Game.Status
    public let currentRound: Int
    public let totalRounds: Int
    public let isHost: Bool
    /// The viewer's own seat, if any.
    public let you: PlayerID?
    public let round: RoundView?
    /// The leading players, best first (up to `GameScreen.hostListSize` for the host,
    /// `GameScreen.scoreboardSize` for a player), and the viewer's own seat wherever it ranks.
    /// The whole list is `GameScreen.allPlayers(for:)`.
    public let players: [PlayerView]
    /// Seated players, the host not counted.
    public let playerCount: Int
    /// How many have answered the current round, for everyone ("4 of 9 answered").
    public let answeredCount: Int?
    /// The current round's guesses this viewer may see: a player their own; the host up to
    /// `GameScreen.hostListSize`, near misses to rule on first once the answer is out.
    public let guesses: [GuessView]
}

extension Game {
    /// The game as `viewer` may see it.
    public func view(for viewer: UserID?) -> GameView { GameScreen(self, onlyFor: viewer).view(for: viewer) }
}

extension Game {
    /// Every round as `viewer` may see it (the rounds list).
    public func roundViews(for viewer: UserID?) -> [GameView.RoundView] {
        rounds.map { roundView($0, forHost: viewer == host) }
    }

    /// One round as the host, or a player, may see it, with its clip's countdown.
    public func roundView(_ round: Round, forHost: Bool) -> GameView.RoundView {
        GameView.RoundView(round, forHost: forHost, seconds: settings.secondsPerSong, pausedAt: status == .paused ? pausedAt : nil)
    }
}

extension Settings {
    /// The settings a player may see: without the artists the host chose songs by, which
    /// would name the answer's artist before the reveal.
    var forPlayers: Settings {
        var s = self
        s.artists = []
        return s
    }
}
