import DualPlayer
import Foundation
import JukeCore
import MediaFormats

/// Songs coming in for the music player: streamed to disk, then read by Juke's own tag
/// readers (title, artist, album, length, cover). A file they cannot read as audio is refused
/// and removed; nothing already uploaded changes.
struct SongUploads: Sendable {
    let folder: String
    let limit: Int

    /// An M4B (an audiobook's MP4) is a song too when it is uploaded as one.
    static let extensions: Set<String> = ["mp3", "m4a", "m4b", "mp4", "aac", "flac", "ogg", "oga", "opus", "wav"]

    /// Writes a file coming in to a new file in the songs folder.
    var receiver: UploadReceiver {
        UploadReceiver(folder: folder, limit: limit, extensions: Self.extensions, expected: "Juke plays MP3, M4A, M4B, FLAC, Ogg, Opus and WAV files.")
    }

    /// The song in the file at `path`, or a refusal (the file is removed).
    func read(path: String, filename: String, owner: UserID?, now: Date) throws -> Song {
        do {
            let tags = try TagReader.read(path: path)
            guard let duration = tags.duration, duration.isFinite, duration > 0 else {
                throw RuleRefusal.unprocessable("body", "The file has no audio Juke can find the length of.")
            }
            let stem = (filename as NSString).deletingPathExtension
            func clean(_ text: String?) -> String? { TextRules.cleanedOrNil(text, limit: 300) }
            return Song(
                id: SongID(rawValue: UUID()), owner: owner, title: clean(tags.title) ?? clean(stem) ?? "Untitled", artist: clean(tags.artist),
                album: clean(tags.album), path: path, format: tags.format.rawValue, codec: tags.codec, duration: duration, hasArtwork: tags.frontCover != nil,
                addedAt: now)
        } catch let error as MediaFormatError {
            try? FileManager.default.removeItem(atPath: path)
            throw RuleRefusal.unprocessable("body", "The file cannot be read as audio: \(error)")
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }
}
