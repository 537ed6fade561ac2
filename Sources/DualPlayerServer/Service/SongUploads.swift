import DualPlayer
import ExternalTools
import Foundation
import JukeCore
import JukePlatform
import MediaFormats
import MediaStorage

/// Songs coming in for the music player: streamed to disk, then read by Juke's own tag
/// readers (title, artist, album, length, cover). A file they cannot read as audio is refused
/// and removed; nothing already uploaded changes.
struct SongUploads: Sendable {
    let scratch: String
    let files: any MediaStore
    let limit: Int

    /// Where uploaded songs are kept in the media storage.
    static let prefix = "dual/songs"

    /// An M4B (an audiobook's MP4) is a song too when it is uploaded as one.
    static let extensions: Set<String> = ["mp3", "m4a", "m4b", "mp4", "aac", "flac", "ogg", "oga", "opus", "wav"]

    /// Receives a file coming in, to be stored under the songs' prefix.
    var receiver: UploadReceiver {
        UploadReceiver(
            scratch: scratch, files: files, prefix: Self.prefix, limit: limit, extensions: Self.extensions,
            expected: "Juke plays MP3, M4A, M4B, FLAC, Ogg, Opus and WAV files.")
    }

    /// The song in the file at `path` (to be stored under `key`), or a refusal; its cover is
    /// stored beside it (`coverKey`), so it shows without reading the song's tags again.
    func read(path: String, key: StorageKey, filename: String, owner: UserID?, now: Date) throws -> UploadReceiver.Reading<Song> {
        do {
            let tags = try TagReader.read(path: path)
            guard let duration = tags.duration, duration.isFinite, duration > 0 else {
                throw RuleRefusal.unprocessable("body", "The file has no audio Juke can find the length of.")
            }
            let stem = (filename as NSString).deletingPathExtension
            func clean(_ text: String?) -> String? { TextRules.cleanedOrNil(text, limit: 300) }
            let song = Song(
                id: SongID(rawValue: UUID()), owner: owner, title: clean(tags.title) ?? clean(stem) ?? "Untitled", artist: clean(tags.artist),
                album: clean(tags.album), file: key.rawValue, format: tags.format.rawValue, codec: tags.codec, duration: duration,
                hasArtwork: tags.frontCover != nil,
                addedAt: now)
            guard let cover = tags.frontCover?.data, let coverKey = Self.coverKey(of: song) else { return .init(item: song) }
            return .init(item: song, companions: [coverKey: Data(cover)])
        } catch let error as MediaFormatError {
            throw RuleRefusal.unprocessable("body", "The file cannot be read as audio: \(error)")
        }
    }

    /// ffmpeg decodes the start of a file Juke's own reader took for audio: bytes that only
    /// look like frames (a program's, where x86 code holds runs of what parses as MPEG
    /// headers) fail to decode, and are refused before anything is kept. Without ffmpeg, Juke's
    /// own reader's verdict stands. ffmpeg takes one of the server's tool slots (503 with
    /// Retry-After past their line). It runs at the server's own priority: a person waits for
    /// it, and at idle priority a host kept busy by other work ran it past its deadline.
    static func verifyDecodes(_ path: String, with ffmpeg: ExternalTool?, slots: ToolSlots) async throws {
        guard let ffmpeg else { return }
        do {
            try await slots.run {
                try await ffmpeg.run(
                    ["-nostdin", "-v", "error", "-xerror", "-t", "30", "-i", path, "-map", "0:a:0", "-f", "null", "-"],
                    limits: .init(deadline: .seconds(60), outputBytes: 1 << 20))
            }
        } catch let failure as ExternalTool.Failure {
            switch failure.kind {
            case .notStarted: return
            case .timedOut: throw RuleRefusal.unprocessable("body", "The file took too long to decode; it cannot be played.")
            case .failed, .tooMuchOutput: throw RuleRefusal.unprocessable("body", "The file cannot be played: its audio does not decode.")
            }
        }
    }

    /// Where a song's cover is kept beside it (`dual/songs/<id>.mp3.cover`).
    static func coverKey(of song: Song) -> StorageKey? { StorageKey(song.file + ".cover") }
}
