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
    /// Who the host took out, in order: they may not join again until let back.
    public internal(set) var removed: [RemovedPlayer] = []
    public let createdAt: Date
    public var startedAt: Date?
    public var endedAt: Date?
    /// When the host paused the game; nil unless paused.
    public var pausedAt: Date?

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
        // Sorted as small keys, not as whole players: ten thousand of them at every reveal.
        var keys = standingKeys()
        keys.sort(by: StandingKey.before)
        return ranked(keys)
    }

    /// The first `count` entries of `standings`, and how many players are ranked in all,
    /// without sorting them all: one person's view lists the first hundred at most.
    func leadingStandings(_ count: Int) -> (leaders: [(rank: Int, player: Player)], ranked: Int) {
        let keys = standingKeys()
        var first = Leaders<StandingKey, Void>(count: count, before: StandingKey.before)
        for key in keys { first.offer(key, ()) }
        return (ranked(first.entries.map(\.key)), keys.count)
    }

    /// `player`'s rank in `standings`: one more than the players with more points. Nil for
    /// the host, who is never ranked.
    func rank(of player: Player) -> Int? {
        guard !player.isHost else { return nil }
        var ahead = 0
        for other in players.values where !other.isHost && other.score.total > player.score.total { ahead += 1 }
        return ahead + 1
    }

    /// Where a player stands: more points first, then who joined first; the seat breaks the
    /// last ties, so the order is the same every time.
    struct StandingKey {
        let total: Int
        let joined: Date
        /// The player's index in `seating`.
        let seat: Int

        static func before(_ a: StandingKey, _ b: StandingKey) -> Bool {
            if a.total != b.total { return a.total > b.total }
            return a.joined != b.joined ? a.joined < b.joined : a.seat < b.seat
        }
    }

    /// Every ranked player's key, in joining order. The host knows the answers, so the host
    /// is never ranked.
    private func standingKeys() -> [StandingKey] {
        var keys: [StandingKey] = []
        keys.reserveCapacity(seating.count)
        for (seat, id) in seating.enumerated() {
            guard let p = players[id], !p.isHost else { continue }
            keys.append(StandingKey(total: p.score.total, joined: p.joinedAt, seat: seat))
        }
        return keys
    }

    /// The players of keys in standing order, each with their rank: the place of the first
    /// one with the same points.
    private func ranked(_ keys: [StandingKey]) -> [(rank: Int, player: Player)] {
        var out: [(rank: Int, player: Player)] = []
        out.reserveCapacity(keys.count)  // no regrowing on the way
        for (i, key) in keys.enumerated() {
            // Every key was made from a seated player.
            guard let player = players[seating[key.seat]] else { continue }
            let rank = i > 0 && keys[i - 1].total == key.total ? out.last?.rank ?? i + 1 : i + 1
            out.append((rank, player))
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

    /// Whether the host took this account out of the game (and has not let it back).
    public func isRemoved(_ user: UserID) -> Bool { removed.contains { $0.user == user } }

    mutating func remember(_ removal: RemovedPlayer) {
        removed.removeAll { $0.user == removal.user }
        removed.append(removal)
    }

    /// Lets back whoever had this seat; false if nobody removed had it.
    mutating func forgetRemoved(_ seat: PlayerID) -> Bool {
        guard removed.contains(where: { $0.player == seat }) else { return false }
        removed.removeAll { $0.player == seat }
        return true
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
