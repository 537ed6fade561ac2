/// What the lock screen, the notification and a headset's display show.
public struct NowPlaying: Sendable, Equatable {
    public enum Shown: String, Sendable, Equatable, Codable {
        case nothing
        case music
        case speech
        /// "music title + speech title" with Juke's logo as the artwork.
        case combined
    }

    public var shown: Shown
    public var isPlaying: Bool

    public init(shown: Shown, isPlaying: Bool) {
        self.shown = shown
        self.isPlaying = isPlaying
    }

    /// The seed's LockScreenManager.update(), in its order: what plays wins; when nothing
    /// plays, what was playing before (both: the combined view stays); then whichever has media.
    public static func decide(_ t: Transport) -> NowPlaying {
        if t.music.isPlaying && t.speech.isPlaying { return NowPlaying(shown: .combined, isPlaying: true) }
        if t.music.isPlaying { return NowPlaying(shown: .music, isPlaying: true) }
        if t.speech.isPlaying { return NowPlaying(shown: .speech, isPlaying: true) }
        let bothWerePlaying = t.musicWasPlaying && t.speechWasPlaying && t.music.hasMedia && t.speech.hasMedia
        if bothWerePlaying { return NowPlaying(shown: .combined, isPlaying: false) }
        if t.musicWasPlaying && t.music.hasMedia { return NowPlaying(shown: .music, isPlaying: false) }
        if t.speechWasPlaying && t.speech.hasMedia { return NowPlaying(shown: .speech, isPlaying: false) }
        if t.music.hasMedia { return NowPlaying(shown: .music, isPlaying: false) }
        if t.speech.hasMedia { return NowPlaying(shown: .speech, isPlaying: false) }
        return NowPlaying(shown: .nothing, isPlaying: false)
    }

    /// The combined title, as the lock screen shows it.
    public static func combinedTitle(music: String, speech: String) -> String { "\(music) + \(speech)" }

    /// Which player the lock screen's seek and track buttons move: the one shown; in the
    /// combined view, seeking moves speech (skipping back a sentence is what a listener
    /// wants there) and the track buttons move music (skipping a song).
    public func seekTarget() -> PlayerKind? {
        switch shown {
        case .nothing: nil
        case .music: .music
        case .speech, .combined: .speech
        }
    }

    public func trackTarget() -> PlayerKind? {
        switch shown {
        case .nothing: nil
        case .speech: .speech
        case .music, .combined: .music
        }
    }
}
