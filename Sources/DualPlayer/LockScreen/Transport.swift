/// The two players' transport as the lock screen, the headset and interruptions see it:
/// which player has media, which plays, and which were playing before everything paused.
///
/// The last two are the seed's `musicWasPlaying` and `speechWasPlaying` flags. They are
/// what makes "pause both, resume both" resume only what was playing, and what keeps the
/// combined view on the lock screen while both are paused. They change only in `apply`.
public struct Transport: Sendable, Equatable {
    public struct Player: Sendable, Equatable {
        public var hasMedia: Bool
        public var isPlaying: Bool

        public init(hasMedia: Bool = false, isPlaying: Bool = false) {
            self.hasMedia = hasMedia
            self.isPlaying = isPlaying && hasMedia
        }
    }

    public var music: Player
    public var speech: Player
    public var musicWasPlaying: Bool
    public var speechWasPlaying: Bool

    public init(music: Player = Player(), speech: Player = Player(), musicWasPlaying: Bool = false, speechWasPlaying: Bool = false) {
        self.music = music
        self.speech = speech
        self.musicWasPlaying = musicWasPlaying
        self.speechWasPlaying = speechWasPlaying
    }

    public subscript(kind: PlayerKind) -> Player {
        get { kind == .music ? music : speech }
        set { if kind == .music { music = newValue } else { speech = newValue } }
    }

    public func wasPlaying(_ kind: PlayerKind) -> Bool { kind == .music ? musicWasPlaying : speechWasPlaying }

    public var anyPlaying: Bool { music.isPlaying || speech.isPlaying }
}

/// What happened to the players. The page turns DOM events into these: a pause it asked
/// for is `userPause`, a pause the browser made on its own (headphones unplugged, a call,
/// another app taking the audio) is `interrupted`.
public enum TransportEvent: Sendable, Equatable {
    /// Media was put in a player (paused).
    case loaded(PlayerKind)
    case unloaded(PlayerKind)
    /// The player's own play or pause button.
    case userPlay(PlayerKind)
    case userPause(PlayerKind)
    /// The lock screen's or a headset's play/pause: one toggle for both players.
    case mediaToggle
    case mediaPlay
    case mediaPause
    case interrupted(PlayerKind)
    /// The media ended with nothing to play next.
    case finished(PlayerKind)
}

/// What the page must do to the players.
public enum TransportAction: Sendable, Equatable {
    case play(PlayerKind)
    case pause(PlayerKind)
}
