public import Foundation
public import JukeCore

/// A seat in a game. Party-mode players are signed-in users; host-mode players are names
/// the host typed, with no account, and never reach the global leaderboard.
public struct Player: Sendable, Codable, Equatable, Identifiable {
    public let id: PlayerID
    public let user: UserID?
    public var displayName: String
    public let isHost: Bool
    public let isManual: Bool
    public var score = Score()
    public let joinedAt: Date

    public init(id: PlayerID, user: UserID?, displayName: String, isHost: Bool, isManual: Bool, joinedAt: Date) {
        self.id = id
        self.user = user
        self.displayName = displayName
        self.isHost = isHost
        self.isManual = isManual
        self.joinedAt = joinedAt
    }

    public static let nameLength = 1...50
}

/// Points and what earned them.
public struct Score: Sendable, Codable, Equatable {
    public var total = 0
    public var artists = 0
    public var songs = 0
    public var trivia = 0

    public init() {}
}

/// A player's answers for one round: typed in party mode, tapped by the host in host mode.
public struct Guess: Sendable, Codable, Equatable {
    public let round: RoundID
    public let player: PlayerID
    public var artistGuess: String = ""
    public var songGuess: String = ""
    public var triviaGuess: String?
    /// The judge's verdicts, kept from submission so the host can see near misses.
    public var artistVerdict: Verdict = .wrong
    public var songVerdict: Verdict = .wrong
    public var artistReason = ""
    public var songReason = ""
    /// Whether each counts: correct verdicts, near misses the host accepted, or host taps.
    public var artistCorrect = false
    public var songCorrect = false
    public var triviaCorrect = false
    /// Points counted so far for this round (artist and song at the reveal, trivia after).
    public var points = 0
    public var submittedAt: Date?
    /// Seconds from the clip's start to the submission.
    public var secondsIn: Double?
    /// What this guess adds to its player's counts of right artists, songs and trivia, as
    /// last scored. A rescore takes it off and adds the new one, as it does with `points`
    /// for the total, so a reveal never reads the player's other rounds (with ten thousand
    /// players, reading them took 20 ms by the fifth round). Not stored: a restored game
    /// scores every round again.
    var counted = Tally()

    /// Everything but `counted`.
    private enum CodingKeys: String, CodingKey {
        case round, player, artistGuess, songGuess, triviaGuess, artistVerdict, songVerdict, artistReason, songReason
        case artistCorrect, songCorrect, triviaCorrect, points, submittedAt, secondsIn
    }

    public enum Verdict: String, Sendable, Codable { case correct, nearMiss = "near_miss", wrong }

    public init(round: RoundID, player: PlayerID) {
        self.round = round
        self.player = player
    }
}

/// Right artists, songs and trivia answers: what one guess adds to its player's score
/// (`Score`'s counts), or a change of them.
struct Tally: Sendable, Equatable {
    var artists = 0
    var songs = 0
    var trivia = 0

    static func - (a: Tally, b: Tally) -> Tally {
        Tally(artists: a.artists - b.artists, songs: a.songs - b.songs, trivia: a.trivia - b.trivia)
    }
}
