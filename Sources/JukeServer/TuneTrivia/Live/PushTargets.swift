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
