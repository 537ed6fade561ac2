/// A stretch of a file as it is, not re-encoded: an audiobook's chapter, cut out so that a
/// phone can keep that chapter without the whole book, or a whole song copied without its
/// tags (TuneTrivia's clip). The file's size and time name the cache entry with the
/// stretch, as a transcode's do.
public struct ClipRequest: Sendable {
    public var path: String
    public var size: Int64
    public var modifiedMillis: Int64
    /// Seconds into the file.
    public var start: Double
    public var end: Double
    public var container: ClipContainer
    /// What names the source in the cache when `path` does not (a presigned address).
    public var identity: String?

    public init(
        path: String, size: Int64, modifiedMillis: Int64, start: Double, end: Double, container: ClipContainer, identity: String? = nil
    ) {
        self.path = path
        self.identity = identity
        self.size = size
        self.modifiedMillis = modifiedMillis
        self.start = start
        self.end = end
        self.container = container
    }

    /// The whole file's audio, copied without its tags (`end` is infinite: no `-to`).
    public static func whole(path: String, size: Int64, modifiedMillis: Int64, container: ClipContainer, identity: String? = nil) -> ClipRequest {
        ClipRequest(path: path, size: size, modifiedMillis: modifiedMillis, start: 0, end: .infinity, container: container, identity: identity)
    }
}

/// What a clip is kept in: the file's own container, since its audio is copied, not encoded.
public enum ClipContainer: String, Sendable {
    case mp3
    case m4a
    case flac
    case ogg
    case opus
    case wav

    /// The container for a file in `format` (as the tag reader names it), or nil for one
    /// Juke does not cut (audiobooks come as M4B, M4A or MP3).
    public init?(format: String) {
        switch format {
        case "mp3": self = .mp3
        case "mp4": self = .m4a
        default: return nil
        }
    }

    /// The container a whole song in `format` is copied into without its tags: its own, for
    /// the formats browsers play as they are; nil for the rest (they are transcoded).
    public init?(copying format: String) {
        switch format {
        case "flac": self = .flac
        case "ogg_vorbis": self = .ogg
        case "opus": self = .opus
        case "wav": self = .wav
        default: self.init(format: format)
        }
    }

    public var contentType: String {
        switch self {
        case .mp3: "audio/mpeg"
        case .m4a: "audio/mp4"
        case .flac: "audio/flac"
        case .ogg: "audio/ogg"
        case .opus: "audio/ogg; codecs=opus"
        case .wav: "audio/wav"
        }
    }

    var fileExtension: String { rawValue }

    /// ffmpeg's muxer options. The clip goes to a file, not a pipe: an MP4's index comes
    /// first only when ffmpeg can go back and move it (`faststart`), and an MP3 clip gets
    /// its length in a Xing frame, so the player knows its duration and seeks in it.
    var muxerArguments: [String] {
        switch self {
        case .mp3: ["-f", "mp3"]
        case .m4a: ["-f", "ipod", "-movflags", "+faststart"]
        case .flac: ["-f", "flac"]
        case .ogg: ["-f", "ogg"]
        case .opus: ["-f", "opus"]
        case .wav: ["-f", "wav"]
        }
    }
}
