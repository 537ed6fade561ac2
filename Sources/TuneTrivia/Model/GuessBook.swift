public import Foundation

/// One round's guesses by player, kept in 64 shards. A game's state is a value that several
/// owners share (the server's cache, the frame being pushed), so recording a guess copies
/// what it changes: with one dictionary that is every guess of the round, ten thousand of
/// them, a thousand times a second; with shards it is one sixty-fourth of that.
public struct GuessBook: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private static let shardCount = 64
    private var shards: [[PlayerID: Guess]]
    public private(set) var count = 0

    public init() { shards = Array(repeating: [:], count: Self.shardCount) }

    public init(dictionaryLiteral elements: (PlayerID, Guess)...) {
        self.init()
        for (player, guess) in elements { self[player] = guess }
    }

    private static func shard(_ player: PlayerID) -> Int { Int(player.rawValue.uuid.15) % shardCount }

    public subscript(player: PlayerID) -> Guess? {
        get { shards[Self.shard(player)][player] }
        set {
            let i = Self.shard(player)
            let old: Guess?
            if let newValue { old = shards[i].updateValue(newValue, forKey: player) } else { old = shards[i].removeValue(forKey: player) }
            if old == nil, newValue != nil { count += 1 }
            if old != nil, newValue == nil { count -= 1 }
        }
    }

    public var isEmpty: Bool { count == 0 }
    public var values: [Guess] { shards.flatMap(\.values) }
    /// Every guess, without gathering ten thousand of them into an array first (the host's
    /// screen goes through the round's guesses at every redraw).
    public func forEach(_ body: (Guess) throws -> Void) rethrows {
        for shard in shards {
            for guess in shard.values { try body(guess) }
        }
    }
    public var keys: [PlayerID] { shards.flatMap(\.keys) }

    /// Replaces each guess `revise` returns a new value for, where it lies: every guess of
    /// the book, or only `players`' ones. The book is walked, not searched (a reveal goes
    /// through ten thousand guesses), and a shard shared with another copy of the game is
    /// copied only when one of its own guesses changes.
    mutating func revise(_ players: [PlayerID]? = nil, _ revise: (Guess) -> Guess?) {
        if let players {
            for player in players {
                let i = Self.shard(player)
                guard let index = shards[i].index(forKey: player), let new = revise(shards[i].values[index]) else { continue }
                shards[i].values[index] = new
            }
            return
        }
        for i in shards.indices {
            var index = shards[i].startIndex
            while index != shards[i].endIndex {
                if let new = revise(shards[i].values[index]) { shards[i].values[index] = new }
                shards[i].formIndex(after: &index)
            }
        }
    }

    public static func == (a: GuessBook, b: GuessBook) -> Bool { a.count == b.count && a.shards == b.shards }
}
