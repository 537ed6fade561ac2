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
    public private(set) var guesses: [RoundID: GuessBook] = [:]
    /// Indexes kept with the seats, so that a game of ten thousand players finds a seat or
    /// checks a name without reading every other one.
    private var seatByUser: [UserID: PlayerID] = [:]
    private var takenNames: [String: PlayerID] = [:]
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
        seatByUser[user].flatMap { players[$0] }
    }

    /// Whether someone already sits under this name (names compare without case).
    public func isNameTaken(_ name: String) -> Bool { takenNames[name.lowercased()] != nil }

    /// Players in joining order.
    public var seated: [Player] { seating.compactMap { players[$0] } }

    /// Players by score, best first, then by who joined first; equal scores share a rank
    /// ("1, 2, 2, 4").
    public var standings: [(rank: Int, player: Player)] {
        let seated = self.seated
        // Sorted as small keys, not as whole players: ten thousand of them at every reveal.
        // The seat breaks the last ties, so the order is the same every time.
        struct Key {
            let total: Int
            let joined: Date
            let seat: Int
        }
        var keys: [Key] = []
        keys.reserveCapacity(seated.count)
        // The host knows the answers, so the host is never ranked.
        for (seat, p) in seated.enumerated() where !p.isHost { keys.append(Key(total: p.score.total, joined: p.joinedAt, seat: seat)) }
        keys.sort { a, b in
            if a.total != b.total { return a.total > b.total }
            return a.joined != b.joined ? a.joined < b.joined : a.seat < b.seat
        }
        var out: [(rank: Int, player: Player)] = []
        out.reserveCapacity(keys.count)  // no regrowing on the way
        for (i, key) in keys.enumerated() {
            let rank = i > 0 && keys[i - 1].total == key.total ? out[i - 1].rank : i + 1
            out.append((rank, seated[key.seat]))
        }
        return out
    }

    // MARK: - Mutations used by the rules

    mutating func seat(_ player: Player) {
        if let old = players[player.id] { forget(old) } else { seating.append(player.id) }
        players[player.id] = player
        if let user = player.user { seatByUser[user] = player.id }
        takenNames[player.displayName.lowercased()] = player.id
    }

    private mutating func forget(_ player: Player) {
        if let user = player.user, seatByUser[user] == player.id { seatByUser[user] = nil }
        if takenNames[player.displayName.lowercased()] == player.id { takenNames[player.displayName.lowercased()] = nil }
    }

    mutating func unseat(_ id: PlayerID) {
        if let old = players[id] { forget(old) }
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

    /// `GuessBook.revise` on a round's guesses, in place.
    mutating func reviseGuesses(round: RoundID, players: [PlayerID]?, _ revise: (Guess) -> Guess?) {
        guesses[round]?.revise(players, revise)
    }

    /// A player's score, changed in place (the name and account stay, and so do the indexes).
    mutating func setScore(_ id: PlayerID, _ score: Score) { players[id]?.score = score }
}
