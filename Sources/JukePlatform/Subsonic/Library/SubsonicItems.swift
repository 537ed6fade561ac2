import Foundation
import JukeCore
import Storage

/// The catalog's rows as Subsonic's elements: a track as a `Child` (song), an album as an
/// `AlbumID3` or, in the folder-style lists, as a directory `Child`, an artist as an
/// `ArtistID3`. Server paths never leave: `path` is made of the tags.
enum SubsonicItems {
    static func date(_ date: Date?) -> String? {
        guard let date else { return nil }
        return date.formatted(.iso8601)
    }

    static func suffix(_ track: Track) -> String {
        let ext = (track.path as NSString).pathExtension.lowercased()
        return ext.isEmpty ? track.format : ext
    }

    static func song(_ track: Track) -> SubsonicElement {
        var e = SubsonicElement()
        e.add("id", SubsonicID.track(track.id).text)
        e.add("parent", SubsonicID.album(track.albumID).text)
        e.add("isDir", false)
        e.add("title", track.title)
        e.add("album", track.album)
        e.add("artist", track.artist)
        e.add("track", track.trackNumber)
        e.add("year", track.year)
        e.add("genre", track.genre)
        e.add("coverArt", track.artworkHash == nil ? nil : SubsonicID.track(track.id).text)
        e.add("size", Int(track.fileSize))
        e.add("contentType", AudioMIME.type(format: track.format))
        e.add("suffix", suffix(track))
        e.add("duration", Int(track.duration.rounded()))
        if track.duration > 0 { e.add("bitRate", Int((Double(track.fileSize) * 8 / track.duration / 1000).rounded())) }
        e.add("path", "\(track.albumArtist)/\(track.album)/\(track.title).\(suffix(track))")
        e.add("discNumber", track.discNumber)
        e.add("created", date(track.addedAt))
        e.add("albumId", SubsonicID.album(track.albumID).text)
        e.add("artistId", SubsonicID.artist(track.artistID).text)
        e.add("type", "music")
        e.add("mediaType", "song")
        e.add("isVideo", false)
        e.add("bpm", track.bpm.map { Int($0.rounded()) })
        e.add("musicBrainzId", track.musicBrainzID)
        return e
    }

    static func albumArtistID(_ album: LibraryStore.AlbumSummary) -> SubsonicID { .artist(StableID.artist(named: album.artist)) }

    static func albumID3(_ album: LibraryStore.AlbumSummary) -> SubsonicElement {
        var e = SubsonicElement()
        e.add("id", SubsonicID.album(album.id).text)
        e.add("name", album.title)
        e.add("artist", album.artist)
        e.add("artistId", albumArtistID(album).text)
        e.add("coverArt", album.artworkTrackID == nil ? nil : SubsonicID.album(album.id).text)
        e.add("songCount", album.trackCount)
        e.add("duration", Int(album.duration.rounded()))
        e.add("playCount", album.playCount)
        e.add("created", date(album.addedAt))
        e.add("year", album.year)
        e.add("genre", album.genre)
        e.add("played", date(album.lastPlayedAt))
        return e
    }

    /// An album as a folder-style directory (getAlbumList, search2, getMusicDirectory).
    static func albumDirectory(_ album: LibraryStore.AlbumSummary) -> SubsonicElement {
        var e = SubsonicElement()
        e.add("id", SubsonicID.album(album.id).text)
        e.add("parent", albumArtistID(album).text)
        e.add("isDir", true)
        e.add("title", album.title)
        e.add("name", album.title)
        e.add("album", album.title)
        e.add("artist", album.artist)
        e.add("year", album.year)
        e.add("genre", album.genre)
        e.add("coverArt", album.artworkTrackID == nil ? nil : SubsonicID.album(album.id).text)
        e.add("songCount", album.trackCount)
        e.add("duration", Int(album.duration.rounded()))
        e.add("playCount", album.playCount)
        e.add("created", date(album.addedAt))
        e.add("artistId", albumArtistID(album).text)
        e.add("albumId", SubsonicID.album(album.id).text)
        return e
    }

    /// An artist in the folder-style answers (getStarred, search2, getArtistInfo, getIndexes):
    /// its id and name only.
    static func artistDirectory(_ artist: LibraryStore.ArtistSummary) -> SubsonicElement {
        var e = SubsonicElement()
        e.add("id", SubsonicID.artist(artist.id).text)
        e.add("name", artist.name)
        return e
    }

    static func artistID3(_ artist: LibraryStore.ArtistSummary) -> SubsonicElement {
        var e = SubsonicElement()
        e.add("id", SubsonicID.artist(artist.id).text)
        e.add("name", artist.name)
        e.add("coverArt", SubsonicID.artist(artist.id).text)
        e.add("albumCount", artist.albumCount)
        return e
    }

    /// The A-Z index's letter of a name: its first letter with "The", "A" and "An" set
    /// aside and accents folded, or "#" for anything but a letter.
    static let ignoredArticles = "The A An"

    static func indexLetter(_ name: String) -> String {
        var text = name.trimmingCharacters(in: .whitespaces)
        for article in ignoredArticles.split(separator: " ") {
            let prefix = article + " "
            if text.count > prefix.count, text.lowercased().hasPrefix(prefix.lowercased()) {
                text = String(text.dropFirst(prefix.count))
                break
            }
        }
        guard let first = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).first, first.isLetter, first.isASCII else {
            return "#"
        }
        return first.uppercased()
    }
}
