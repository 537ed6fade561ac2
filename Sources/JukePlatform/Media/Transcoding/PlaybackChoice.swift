import HTTPTypes

/// What a browser can play, as its page reported it (each codec it answered `canPlayType`
/// for), in the codec names Juke uses: "mp3", "aac", "alac", "flac", "vorbis", "opus",
/// "wav", "aiff".
public struct BrowserPlays: Sendable, Equatable {
    public let codecs: Set<String>

    /// The names a page may report; any other is ignored (a newer page, a typo).
    public static let known: Set<String> = ["mp3", "aac", "alac", "flac", "vorbis", "opus", "wav", "aiff"]

    public init(codecs: Set<String>) { self.codecs = codecs.intersection(Self.known) }

    /// "mp3,aac,opus" as a page sends it; nil when the text is no such list (too long, or
    /// characters no codec name has).
    public static func parse(_ text: String) -> BrowserPlays? {
        guard text.utf8.count <= 200, text.utf8.allSatisfy({ $0 == UInt8(ascii: ",") || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) })
        else { return nil }
        return BrowserPlays(codecs: Set(text.split(separator: ",").map(String.init)))
    }
}

/// What Juke transcodes to: Opus in Ogg where the browser plays it (small and good), else
/// MP3, which every browser plays.
public enum TranscodeTarget: String, Sendable, CaseIterable {
    case opus, mp3

    /// The response header that says a response is a transcode, and to what.
    static let header = HTTPField.Name("X-Juke-Transcode")

    public var contentType: String {
        switch self {
        case .opus: "audio/ogg; codecs=opus"
        case .mp3: "audio/mpeg"
        }
    }

    var fileExtension: String {
        switch self {
        case .opus: "opus"
        case .mp3: "mp3"
        }
    }

    /// About how many bytes a second of audio takes (the bit rate in `encoderArguments`).
    var bytesPerSecond: Int64 {
        switch self {
        case .opus: 16_000
        case .mp3: 24_000
        }
    }

    /// ffmpeg's encoder options; stereo, since the page plays two channels and Opus needs a
    /// channel mapping for more.
    var encoderArguments: [String] {
        switch self {
        case .opus: ["-ac", "2", "-c:a", "libopus", "-b:a", "128k", "-vbr", "on", "-f", "ogg"]
        case .mp3: ["-ac", "2", "-c:a", "libmp3lame", "-b:a", "192k", "-f", "mp3"]
        }
    }
}

/// Whether a track goes to the browser as its file or as a transcode: the rule, with no I/O.
public enum PlaybackChoice: Equatable, Sendable {
    case original
    case transcode(TranscodeTarget)
    /// The browser cannot play it and this server cannot transcode (no ffmpeg).
    case unplayable

    /// Codecs every browser Juke serves plays as they are.
    public static let playedEverywhere: Set<String> = ["mp3", "aac", "flac", "vorbis", "opus", "wav"]

    /// The codec a file's audio is in, in `BrowserPlays`' names (or Juke's own for those
    /// no browser plays: "wma", "wavpack", "ape", "musepack", "dsd", "ac3").
    public static func codec(format: String, codec: String?) -> String {
        switch format {
        case "mp4":
            switch codec {
            case nil, "aac": "aac"
            case "eac3": "ac3"
            case let other?: other
            }
        case "ogg_vorbis": "vorbis"
        case "asf": "wma"
        case "monkeys_audio": "ape"
        case "dsf": "dsd"
        default: format
        }
    }

    /// Whether a track can be played in every browser here: as it is, or through a transcode.
    public static func playable(format: String, codec: String?, canTranscode: Bool) -> Bool {
        canTranscode || playedEverywhere.contains(Self.codec(format: format, codec: codec))
    }

    /// The answer for a browser that reported what it plays. A request with no report (a
    /// signed link opened in another player, a script) gets the file as it is.
    public static func decide(format: String, codec: String?, plays: BrowserPlays?, canTranscode: Bool) -> PlaybackChoice {
        guard let plays else { return .original }
        if plays.codecs.contains(Self.codec(format: format, codec: codec)) { return .original }
        guard canTranscode else { return .unplayable }
        return .transcode(plays.codecs.contains("opus") ? .opus : .mp3)
    }
}
