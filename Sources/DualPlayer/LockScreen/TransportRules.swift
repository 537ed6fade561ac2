/// The rules of the two players' transport: one pure function from the current transport
/// and an event to the next transport and what to do. Tested against every row of the
/// seed's checklist (Tests/DualPlayerTests/Fixtures/transport-checklist.json), which the
/// web client's copy of these rules (static/js/dual-transport.js) is tested against too.
public enum TransportRules {
    public static func apply(_ event: TransportEvent, to state: Transport) -> (Transport, [TransportAction]) {
        var next = state
        var actions: [TransportAction] = []
        switch event {
        case .loaded(let kind):
            next[kind] = .init(hasMedia: true, isPlaying: false)
        case .unloaded(let kind):
            next[kind] = .init()
            setWasPlaying(kind, false, in: &next)
        case .userPlay(let kind):
            guard state[kind].hasMedia else { break }
            next[kind].isPlaying = true
            rememberWhatPlays(&next)
        case .userPause(let kind), .finished(let kind):
            next[kind].isPlaying = false
            // While the other plays, it alone is what was playing; when this was the last
            // one, the memory of what played stays for the lock screen and the next resume.
            if next.anyPlaying { rememberWhatPlays(&next) }
        case .mediaToggle:
            return state.anyPlaying ? pauseAll(state) : resume(state)
        case .mediaPlay:
            return state.anyPlaying ? (state, []) : resume(state)
        case .mediaPause:
            return pauseAll(state)
        case .interrupted(let kind):
            // The browser paused one player; the other pauses with it, and the flags keep
            // what was playing so that resuming brings back exactly that.
            guard state.anyPlaying else { break }
            rememberWhatPlays(&next)
            for other in PlayerKind.allCases where state[other].isPlaying {
                next[other].isPlaying = false
                if other != kind { actions.append(.pause(other)) }
            }
        }
        return (next, actions)
    }

    /// Pauses every playing player, remembering which were playing.
    static func pauseAll(_ state: Transport) -> (Transport, [TransportAction]) {
        guard state.anyPlaying else { return (state, []) }
        var next = state
        rememberWhatPlays(&next)
        var actions: [TransportAction] = []
        for kind in PlayerKind.allCases where state[kind].isPlaying {
            next[kind].isPlaying = false
            actions.append(.pause(kind))
        }
        return (next, actions)
    }

    /// Resumes what was playing before; with no such memory, every player with media.
    static func resume(_ state: Transport) -> (Transport, [TransportAction]) {
        var kinds = PlayerKind.allCases.filter { state.wasPlaying($0) && state[$0].hasMedia }
        if kinds.isEmpty { kinds = PlayerKind.allCases.filter { state[$0].hasMedia } }
        var next = state
        for kind in kinds { next[kind].isPlaying = true }
        if !kinds.isEmpty { rememberWhatPlays(&next) }
        return (next, kinds.map { .play($0) })
    }

    static func rememberWhatPlays(_ state: inout Transport) {
        state.musicWasPlaying = state.music.isPlaying
        state.speechWasPlaying = state.speech.isPlaying
    }

    static func setWasPlaying(_ kind: PlayerKind, _ value: Bool, in state: inout Transport) {
        if kind == .music { state.musicWasPlaying = value } else { state.speechWasPlaying = value }
    }
}

extension PlayerKind {
    public var other: PlayerKind { self == .music ? .speech : .music }
}
