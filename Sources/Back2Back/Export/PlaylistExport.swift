import JukeCore

/// A session as a playlist file another player can open: M3U8 (extended M3U in UTF-8) or
/// XSPF (the XML Shareable Playlist Format). Locations come from the caller (URLs of the
/// Juke server's audio, or file paths for a local export).
public enum PlaylistExport {
    public enum Format: String, Sendable, CaseIterable {
        case m3u8
        case xspf

        public var mediaType: String {
            switch self {
            case .m3u8: "audio/x-mpegurl; charset=utf-8"
            case .xspf: "application/xspf+xml; charset=utf-8"
            }
        }
    }

    public struct Item: Sendable, Equatable {
        public let song: Song
        public let location: String
        public let annotation: String?

        public init(song: Song, location: String, annotation: String? = nil) {
            self.song = song
            self.location = location
            self.annotation = annotation
        }
    }

    public static func render(_ items: [Item], title: String, as format: Format) -> String {
        switch format {
        case .m3u8: m3u8(items, title: title)
        case .xspf: xspf(items, title: title)
        }
    }

    static func m3u8(_ items: [Item], title: String) -> String {
        var out = "#EXTM3U\n#PLAYLIST:\(oneLine(title))\n"
        for item in items {
            let seconds = item.song.duration.isFinite ? Int(item.song.duration.rounded()) : -1
            out += "#EXTINF:\(seconds),\(oneLine(item.song.artist)) - \(oneLine(item.song.title))\n"
            if !item.song.album.isEmpty { out += "#EXTALB:\(oneLine(item.song.album))\n" }
            out += oneLine(item.location) + "\n"
        }
        return out
    }

    static func xspf(_ items: [Item], title: String) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/">
              <title>\(xml(title))</title>
              <trackList>

            """
        for item in items {
            out += "    <track>\n"
            out += "      <location>\(xml(item.location))</location>\n"
            out += "      <title>\(xml(item.song.title))</title>\n"
            out += "      <creator>\(xml(item.song.artist))</creator>\n"
            if !item.song.album.isEmpty { out += "      <album>\(xml(item.song.album))</album>\n" }
            if item.song.duration.isFinite, item.song.duration > 0 { out += "      <duration>\(Int((item.song.duration * 1000).rounded()))</duration>\n" }
            if let note = item.annotation, !note.isEmpty { out += "      <annotation>\(xml(note))</annotation>\n" }
            out += "    </track>\n"
        }
        out += "  </trackList>\n</playlist>\n"
        return out
    }

    /// M3U is line-based: a line break inside a name would start a new entry.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    /// XML text escaped, with the characters XML 1.0 cannot carry at all dropped.
    static func xml(_ text: String) -> String { Markup.escape(text) }
}
