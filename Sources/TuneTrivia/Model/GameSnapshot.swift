public import Foundation
public import JukeCore

/// A game as it is stored: the snapshot holds what changes rarely (settings, rounds, where
/// the game stands), and players and guesses are stored one row each, because those are
/// what a room of phones writes a thousand times a second. Scores are not stored at all:
/// they follow from the guesses and the rounds' phases, and are recomputed on restore, so
/// a stored score can never disagree with the guesses behind it.
public struct GameSnapshot: Sendable, Codable, Equatable {
    public let id: SessionID
    public let host: UserID
    public let inviteCode: String
    public var settings: Settings
    public var status: Game.Status
    public var currentRound: Int
    public var rounds: [Round]
    public let createdAt: Date
    public var startedAt: Date?
    public var endedAt: Date?
    /// Optional in storage: games stored before pauses were timed have none.
    public var pausedAt: Date?
    /// Who the host took out; optional in storage: games stored before it was kept have none.
    public var removed: [RemovedPlayer]?
}

extension Game {
    public var snapshot: GameSnapshot {
        GameSnapshot(
            id: id, host: host, inviteCode: inviteCode, settings: settings, status: status, currentRound: currentRound, rounds: rounds,
            createdAt: createdAt, startedAt: startedAt, endedAt: endedAt, pausedAt: pausedAt, removed: removed.isEmpty ? nil : removed)
    }

    /// All guesses, for storing.
    public var allGuesses: [Guess] { rounds.flatMap { (guesses[$0.id] ?? [:]).values } }

    /// Rebuilds a stored game from its players in seating order and its guesses; the
    /// players' scores are recomputed from the guesses.
    public init(snapshot s: GameSnapshot, players: [Player], guesses stored: [Guess]) {
        id = s.id
        host = s.host
        inviteCode = s.inviteCode
        settings = s.settings
        status = s.status
        currentRound = s.currentRound
        createdAt = s.createdAt
        startedAt = s.startedAt
        endedAt = s.endedAt
        pausedAt = s.pausedAt
        removed = s.removed ?? []
        for r in s.rounds { appendRound(r) }
        for p in players {
            var fresh = p
            fresh.score = Score()
            seat(fresh)
        }
        for var g in stored where self.players[g.player] != nil && s.rounds.contains(where: { $0.id == g.round }) {
            g.points = 0
            g.counted = Tally()
            setGuess(g)
        }
        for r in s.rounds { rescore(round: r.id) }
    }
}
