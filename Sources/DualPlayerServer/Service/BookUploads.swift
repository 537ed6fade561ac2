import DualPlayer
import Foundation
import JukeCore
import JukePlatform
import MediaFormats

/// Audiobook files coming in: streamed to disk under the size limit, read by Juke's own
/// readers (tags for the title and author, the chapter reader for chapters), and only then
/// put on the shelf. A file that cannot be read is refused and removed; nothing already on
/// the shelf changes.
struct BookUploads: Sendable {
    let folder: String
    let limit: Int

    static let extensions: Set<String> = ["m4b", "m4a", "mp4", "mp3"]

    /// Writes a file coming in to a new file in the books folder.
    var receiver: UploadReceiver {
        UploadReceiver(folder: folder, limit: limit, extensions: Self.extensions, expected: "Juke plays audiobooks as M4B, M4A or MP3 files.")
    }

    /// The book in the file at `path`, or a refusal (the file is removed).
    func read(path: String, filename: String, owner: UserID?, now: Date) throws -> Book {
        do {
            let tags = try TagReader.read(path: path)
            guard tags.format == .mp4 || tags.format == .mp3 else {
                throw RuleRefusal.unprocessable("body", "Juke plays audiobooks as M4B, M4A or MP3 files; this is \(tags.format.rawValue).")
            }
            let chapters = try ChapterReader.read(path: path)
            let stem = (filename as NSString).deletingPathExtension
            return Book(
                id: BookID(rawValue: UUID()), owner: owner, origin: .upload,
                title: TextRules.cleanedOrNil(tags.album, limit: 300) ?? TextRules.cleanedOrNil(tags.title, limit: 300)
                    ?? TextRules.cleanedOrNil(stem, limit: 300) ?? "Untitled",
                author: TextRules.cleanedOrNil(tags.albumArtist, limit: 300) ?? TextRules.cleanedOrNil(tags.artist, limit: 300),
                path: path, format: tags.format.rawValue, duration: chapters.duration, chapterSource: chapters.source.rawValue,
                chapters: chapters.chapters.map { Book.Chapter(title: TextRules.cleaned($0.title, limit: 300), start: $0.start, end: $0.end) },
                addedAt: now)
        } catch let error as MediaFormatError {
            try? FileManager.default.removeItem(atPath: path)
            throw RuleRefusal.unprocessable("body", "The file cannot be read as an audiobook: \(error)")
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }
}
