/// Which path a player's audio takes, given its mode and what it plays.
///
/// Boost needs Web Audio, and a browser lets only audio from Juke's own origin (or a site
/// that allows it by CORS) into Web Audio: anything else would play silent. So a source that
/// cannot enter Web Audio plays on the plain path even in Boost mode, and the page says why.
public enum AudioPath: Sendable, Equatable {
    case plain
    case webAudio
    /// Boost was asked for and cannot apply; the reason is shown beside the mode switch.
    case plainBecause(String)

    /// Where a player's media comes from.
    public enum Source: Sendable, Equatable {
        /// Served by Juke: library tracks, uploads, books, and radio through the stream relay.
        case juke
        /// Another site that allows cross-origin reads (CORS), such as some podcast hosts.
        case crossOriginAllowed
        /// Another site that does not: its audio can play, but not through Web Audio.
        case crossOriginOpaque
    }

    public static func choose(mode: PlayerSettings.Mode, source: Source) -> AudioPath {
        switch (mode, source) {
        case (.quality, _): .plain
        case (.boost, .juke), (.boost, .crossOriginAllowed): .webAudio
        case (.boost, .crossOriginOpaque):
            .plainBecause("This stream comes straight from another site that does not let pages process its audio, so Boost cannot apply to it.")
        }
    }
}
