/// A stretch of a file as it is, not re-encoded: an audiobook's chapter, cut out so that a
/// phone can keep that chapter without the whole book. The file's size and time name the
/// cache entry with the stretch, as a transcode's do.
public struct ClipRequest: Sendable {
    public var path: String
    public var size: Int64
    public var modifiedMillis: Int64
    /// Seconds into the file.
    public var start: Double
    public var end: Double
    public var container: ClipContainer

    public init(path: String, size: Int64, modifiedMillis: Int64, start: Double, end: Double, container: ClipContainer) {
        self.path = path
        self.size = size
        self.modifiedMillis = modifiedMillis
        self.start = start
        self.end = end
        self.container = container
    }
}

/// What a clip is kept in: the file's own container, since its audio is copied, not encoded.
public enum ClipContainer: String, Sendable {
    case mp3
    case m4a

    /// The container for a file in `format` (as the tag reader names it), or nil for one
    /// Juke does not cut (audiobooks come as M4B, M4A or MP3).
    public init?(format: String) {
        switch format {
        case "mp3": self = .mp3
        case "mp4": self = .m4a
        default: return nil
        }
    }

    public var contentType: String {
        switch self {
        case .mp3: "audio/mpeg"
        case .m4a: "audio/mp4"
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
        }
    }
}
