import Crypto
import Foundation
import JukeCore
import MediaFormats

/// Turns what a tag reader found into a library track, filling the gaps a person expects
/// filled (a title from the file name, "Unknown Artist").
enum TrackBuilder {
    static let unknownArtist = "Unknown Artist"
    static let unknownAlbum = "Unknown Album"

    struct Built {
        let track: Track
        let artwork: (hash: String, mimeType: String, data: Data)?
        /// The song's words (plain or LRC text), with only what a multi-line field accepts.
        var lyrics: (text: String, language: String?)?
    }

    static func build(
        meta: AudioMetadata, file: FileWalker.Entry, id: TrackID, folder: LibraryFolderID, addedAt: Date
    ) -> Built {
        var artwork: (String, String, Data)?
        if let cover = meta.frontCover {
            let digest = SHA256.hash(data: cover.data)
            let hash = Hex.string(digest)
            artwork = (hash, cover.mimeType, Data(cover.data))
        }
        let fileName = URL(fileURLWithPath: file.path).deletingPathExtension().lastPathComponent
        // Tags are outside text: no control characters or direction overrides get through
        // to the screens (TextRules).
        func clean(_ text: String?) -> String? { TextRules.cleanedOrNil(text) }
        let artist = clean(meta.artist) ?? clean(meta.albumArtist) ?? unknownArtist
        let track = Track(
            id: id, folderID: folder, path: file.path, fileSize: file.size, modifiedMillis: file.modifiedMillis,
            format: meta.format.rawValue, codec: meta.codec,
            title: clean(meta.title) ?? clean(fileName) ?? "Untitled",
            artist: artist,
            album: clean(meta.album) ?? unknownAlbum,
            albumArtist: clean(meta.albumArtist) ?? artist,
            composer: clean(meta.composer), genre: clean(meta.genre), year: meta.year,
            trackNumber: meta.trackNumber, discNumber: meta.discNumber,
            duration: meta.duration ?? 0,
            isrc: meta.isrc, musicBrainzID: meta.musicBrainzRecordingID, bpm: meta.bpm,
            artworkHash: artwork?.0, addedAt: addedAt
        )
        var built = Built(track: track, artwork: artwork)
        if let lyrics = meta.lyrics {
            let text = String(String.UnicodeScalarView(lyrics.text.unicodeScalars.filter { TextRules.isAllowed($0, as: .multiline) }))
            if !text.allSatisfy(\.isWhitespace) { built.lyrics = (text, lyrics.language.flatMap { TextRules.cleanedOrNil($0, limit: 8) }) }
        }
        return built
    }
}
