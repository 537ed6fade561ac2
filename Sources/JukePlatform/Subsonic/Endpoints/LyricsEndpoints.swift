import Foundation
import JukeCore
import MediaFormats
import Storage

/// getLyrics and getLyricsBySongId (the songLyrics extension, version 1): the words the scan
/// kept from the files' tags (ID3 USLT/SYLT, Vorbis LYRICS/UNSYNCEDLYRICS, MP4 ©lyr, APE
/// Lyrics). LRC text (SYLT is stored as LRC) is synced: each line with its start.
enum LyricsEndpoints {
    /// Stored lyrics as `structuredLyrics`: synced lines with their starts when the text is
    /// LRC, else each line as it is. `und` when the tag names no language.
    static func structured(_ lyrics: LibraryStore.StoredLyrics, track: Track) -> SubsonicElement {
        let timed = LRC.lines(lyrics.text)
        var e = SubsonicElement()
        e.add("displayArtist", track.artist)
        e.add("displayTitle", track.title)
        e.add("lang", lyrics.language ?? "und")
        if !timed.isEmpty { e.add("offset", LRC.offset(lyrics.text)) }
        e.add("synced", !timed.isEmpty)
        let lines: [SubsonicElement]
        if timed.isEmpty {
            lines = lyrics.text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { text in
                var line = SubsonicElement()
                line.text = String(text)
                return line
            }
        } else {
            lines = timed.map { timedLine in
                var line = SubsonicElement()
                line.add("start", timedLine.millis)
                line.text = timedLine.text
                return line
            }
        }
        e.add("line", list: lines)
        return e
    }

    /// The words alone, for getLyrics (a synced text without its times).
    static func plain(_ lyrics: LibraryStore.StoredLyrics) -> String {
        let timed = LRC.lines(lyrics.text)
        return timed.isEmpty ? lyrics.text : timed.map(\.text).joined(separator: "\n")
    }

    static func all(platform: Platform) -> [SubsonicEndpoint] {
        let library = platform.library
        return [
            SubsonicEndpoint("getLyrics") { call in
                let p = call.parameters
                let artist = p.string("artist").flatMap { $0.isEmpty ? nil : $0 }
                let title = p.string("title").flatMap { $0.isEmpty ? nil : $0 }
                for (name, value) in [("artist", artist), ("title", title)] where (value?.unicodeScalars.count ?? 0) > 500 {
                    throw SubsonicError.invalid(name, "at most 500 characters.")
                }
                // Found or not, the answer is a lyrics element (empty when none is known).
                var e = SubsonicElement()
                if let found = try await library.lyrics(artist: artist, title: title), let track = try await library.track(id: found.track) {
                    e.add("artist", track.artist)
                    e.add("title", track.title)
                    e.text = plain(found)
                }
                return .element("lyrics", e)
            },
            SubsonicEndpoint("getLyricsBySongId") { call in
                guard case .track(let id) = try SubsonicID.read(call.parameters), let track = try await library.track(id: id) else {
                    throw SubsonicError.notFound("Song")
                }
                var e = SubsonicElement()
                e.add("structuredLyrics", list: try await library.lyrics(track: id).map { [structured($0, track: track)] } ?? [])
                return .element("lyricsList", e)
            },
        ]
    }
}
