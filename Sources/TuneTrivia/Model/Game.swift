public import Foundation
public import JukeCore

/// A TuneTrivia game: the whole state the rules work on. It changes only through
/// `apply(_:by:at:)` (Rules/GameRules.swift), which takes a command, the user issuing it
/// and the time, and returns what happened; no I/O, no clock, no randomness inside.
public struct Game: Sendable, Equatable {
    public enum Status: String, Sendable, Codable {
        case lobby, active, paused, ended
    }

    public let id: SessionID
    public let host: UserID
    public let inviteCode: String
    public var settings: Settings
    public var status: Status = .lobby
    /// 1-based number of the round being played; 0 before the start.
    public var currentRound = 0
    public private(set) var rounds: [Round] = []
    /// Seats in joining order; `players` holds them by ID.
    public private(set) var seating: [PlayerID] = []
    public private(set) var players: [PlayerID: Player] = [:]
    /// Guesses by round, then by player.
    public private(set) var guesses: [RoundID: [PlayerID: Guess]] = [:]
    public let createdAt: Date
    public var startedAt: Date?
    public var endedAt: Date?

    public init(id: SessionID, host: UserID, hostName: String, hostPlayer: PlayerID, inviteCode: String, settings: Settings, at now: Date) {
        self.id = id
        self.host = host
        self.inviteCode = inviteCode
        self.settings = settings
        self.createdAt = now
        seat(Player(id: hostPlayer, user: host, displayName: hostName, isHost: true, isManual: false, joinedAt: now))
    }

    public var round: Round? { currentRound >= 1 && currentRound <= rounds.count ? rounds[currentRound - 1] : nil }

    public func player(forUser user: UserID) -> Player? {
        seating.lazy.compactMap { players[$0] }.first { $0.user == user }
    }

    /// Players in joining order.
    public var seated: [Player] { seating.compactMap { players[$0] } }

    /// Players by score, best first; equal scores share a rank ("1, 2, 2, 4").
    public var standings: [(rank: Int, player: Player)] {
        // The host knows the answers, so the host is never ranked.
        let sorted = seated.filter { !$0.isHost }.sorted {
            $0.score.total != $1.score.total ? $0.score.total > $1.score.total : $0.joinedAt < $1.joinedAt
        }
        var out: [(Int, Player)] = []
        for (i, p) in sorted.enumerated() {
            let rank = i > 0 && sorted[i - 1].score.total == p.score.total ? out[i - 1].0 : i + 1
            out.append((rank, p))
        }
        return out
    }

    // MARK: - Mutations used by the rules

    mutating func seat(_ player: Player) {
        if players[player.id] == nil { seating.append(player.id) }
        players[player.id] = player
    }

    mutating func unseat(_ id: PlayerID) {
        players[id] = nil
        seating.removeAll { $0 == id }
        for round in guesses.keys { guesses[round]?[id] = nil }
    }

    mutating func appendRound(_ round: Round) { rounds.append(round) }

    mutating func removeRound(at index: Int) {
        let removed = rounds.remove(at: index)
        guesses[removed.id] = nil
        for i in rounds.indices { rounds[i].number = i + 1 }
    }

    mutating func updateRound(at index: Int, _ change: (inout Round) -> Void) { change(&rounds[index]) }

    mutating func setGuess(_ guess: Guess) { guesses[guess.round, default: [:]][guess.player] = guess }

    mutating func updatePlayer(_ id: PlayerID, _ change: (inout Player) -> Void) {
        if var p = players[id] {
            change(&p)
            players[id] = p
        }
    }
}
