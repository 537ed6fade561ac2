public import JukeCore

/// Whose screens an event changes, so that a game of ten thousand phones redraws only the
/// screens that show something new. The host's screen shows everything, so every event
/// reaches the host.
public enum Reach: Sendable, Equatable {
    /// Every screen, at once: the round, the phase or the scores moved.
    case everyone
    /// Only this player's own screen (and the host's): their answer is in, or was scored
    /// without moving anyone else's rank.
    case player(PlayerID)
    /// This player's screen at once; everyone else's shows counts (the seats, the answers
    /// in), which may catch up a moment later: nobody waits on who just sat down or answered,
    /// and a thousand answers a second redraw the room about once a second, not a thousand times.
    case seats(PlayerID)
}

extension GameEvent {
    public var reach: Reach {
        switch self {
        case .scored(let p): .player(p)
        case .guessAccepted(let p), .playerJoined(let p), .playerLeft(let p): .seats(p)
        case .settingsChanged, .letBack, .roundsChanged, .started, .paused, .resumed, .roundStarted, .revealed, .triviaRevealed, .scoresChanged, .ended:
            .everyone
        }
    }
}
