import JukeCore
import TuneTrivia

/// Whose screens a change must redraw (the host's always), from the events' reach
/// (TuneTrivia's `Reach`). It travels between servers in the NOTIFY payload.
struct PushTargets: Sendable, Equatable {
    /// Every screen, now.
    var everyone = false
    /// These players' screens, now.
    var players: Set<PlayerID> = []
    /// Every screen, within the hub's settling time (who is seated).
    var everyoneSoon = false

    init(everyone: Bool = false, players: Set<PlayerID> = [], everyoneSoon: Bool = false) {
        self.everyone = everyone
        self.players = players
        self.everyoneSoon = everyoneSoon
    }

    init(events: [GameEvent]) {
        for event in events {
            switch event.reach {
            case .everyone: everyone = true
            case .player(let p): players.insert(p)
            case .seats(let p):
                players.insert(p)
                everyoneSoon = true
            }
        }
    }

    var isEmpty: Bool { !everyone && players.isEmpty && !everyoneSoon }

    mutating func formUnion(_ other: PushTargets) {
        everyone = everyone || other.everyone
        players.formUnion(other.players)
        everyoneSoon = everyoneSoon || other.everyoneSoon
    }

    /// "E", or "S" or "P" followed by player IDs ("S" when everyone should follow soon).
    var payload: String {
        if everyone { return "E" }
        return (everyoneSoon ? "S" : "P") + players.map { " \($0)" }.joined()
    }

    /// `payload` cut into pieces a NOTIFY can carry (PostgreSQL takes 8,000 bytes), each
    /// after `prefix`; the receiver unites them. A thousand answers a second name hundreds
    /// of players in one batch.
    func payloads(after prefix: String, limit: Int = 7_900) -> [String] {
        if everyone || players.isEmpty { return [prefix + payload] }
        let kind = everyoneSoon ? "S" : "P"
        var out: [String] = []
        var current = prefix + kind
        for player in players {
            let word = " \(player)"
            if current.utf8.count + word.utf8.count > limit, current.utf8.count > prefix.utf8.count + 1 {
                out.append(current)
                current = prefix + kind
            }
            current += word
        }
        out.append(current)
        return out
    }

    init?(payload: Substring) {
        let words = payload.split(separator: " ")
        guard let kind = words.first else { return nil }
        switch kind {
        case "E": everyone = true
        case "S", "P":
            everyoneSoon = kind == "S"
            for word in words.dropFirst() {
                guard let p = PlayerID(String(word)) else { return nil }
                players.insert(p)
            }
        default: return nil
        }
    }
}
