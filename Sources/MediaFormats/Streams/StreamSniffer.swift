/// What a radio stream's answer is, from its declared type and its first bytes: audio to
/// relay, a playlist to follow, an HLS playlist, or something that is not audio at all (an
/// HTML error page, a login page, an image), which the relay refuses.
public enum StreamKind: String, Sendable, Equatable {
    case mpeg
    case aac
    case ogg
    case flac
    /// An HLS media or master playlist (#EXTM3U with #EXT-X- tags).
    case hls
    /// A PLS or plain M3U playlist naming the stream's address.
    case playlist
    case notAudio

    public var isAudio: Bool { [.mpeg, .aac, .ogg, .flac].contains(self) }

    /// The type a browser plays it as.
    public var mediaType: String {
        switch self {
        case .mpeg: "audio/mpeg"
        case .aac: "audio/aac"
        case .ogg: "audio/ogg"
        case .flac: "audio/flac"
        case .hls: "application/vnd.apple.mpegurl"
        case .playlist: "audio/x-mpegurl"
        case .notAudio: "application/octet-stream"
        }
    }

    /// Decides from the declared type and the first bytes (at least a few hundred when the
    /// type is vague). Bytes win over a vague type; a type that is clearly not audio
    /// (text/html) is refused whatever follows.
    public static func sniff(contentType: String?, firstBytes bytes: ArraySlice<UInt8>) -> StreamKind {
        let type = (contentType ?? "").lowercased()
        let text = Array(bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.prefix(4096))
        let isM3U = text.starts(with: Array("#EXTM3U".utf8))
        if isM3U || ["application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl", "audio/x-mpegurl"].contains(type) {
            let body = String(decoding: text, as: UTF8.self)
            if body.contains("#EXT-X-") { return .hls }
            if isM3U || body.contains("http") { return .playlist }
        }
        if ["audio/x-scpls", "application/pls+xml", "audio/scpls"].contains(type) || text.starts(with: Array("[playlist]".utf8))
            || text.starts(with: Array("[Playlist]".utf8))
        {
            return .playlist
        }
        if type.hasPrefix("text/") || type.hasPrefix("image/") || type.hasPrefix("video/") && type != "video/mp2t" || type == "application/json"
            || type.hasSuffix("+xml") || type == "application/xml"
        {
            return .notAudio
        }
        if let fromBytes = fromBytes(bytes) { return fromBytes }
        switch type {
        case "audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg": return .mpeg
        case "audio/aac", "audio/aacp", "audio/x-aac", "audio/mp4", "audio/x-m4a": return .aac
        case "audio/ogg", "application/ogg", "audio/opus", "audio/vorbis", "audio/x-ogg": return .ogg
        case "audio/flac", "audio/x-flac": return .flac
        default: return .notAudio
        }
    }

    static func fromBytes(_ bytes: ArraySlice<UInt8>) -> StreamKind? {
        let head = Array(bytes.prefix(4))
        guard head.count >= 4 else { return nil }
        if head.starts(with: Array("OggS".utf8)) { return .ogg }
        if head.starts(with: Array("fLaC".utf8)) { return .flac }
        if head.starts(with: Array("ID3".utf8)) { return .mpeg }
        // Find the first frame sync in the first bytes: ADTS (layer bits 00) or MPEG audio.
        var index = bytes.startIndex
        let end = min(bytes.endIndex - 1, bytes.startIndex + 4096)
        while index < end {
            if bytes[index] == 0xFF, bytes[index + 1] & 0xE0 == 0xE0 {
                let second = bytes[index + 1]
                if second & 0xF6 == 0xF0 { return .aac }
                if second & 0x06 != 0, second & 0x18 != 0x08 { return .mpeg }
            }
            index += 1
        }
        return nil
    }
}
