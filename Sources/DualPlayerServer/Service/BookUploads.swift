import DualPlayer
import Foundation
import JukeCore
import JukePlatform
import MediaFormats
import MediaStorage

/// Audiobook files coming in: streamed to this server's disk under the size limit, read by Juke's own
/// readers (tags for the title, author and cover, the chapter reader for chapters), and only then
/// stored and put on the shelf. A file that cannot be read is refused and removed; nothing
/// already on the shelf changes.
struct BookUploads: Sendable {
    let scratch: String
    let files: any MediaStore
    let limit: Int

    /// Where uploaded books are kept in the media storage.
    static let prefix = "dual/books"

    static let extensions: Set<String> = ["m4b", "m4a", "mp4", "mp3"]

    /// Receives a file coming in, to be stored under the books' prefix.
    var receiver: UploadReceiver {
        UploadReceiver(
            scratch: scratch, files: files, prefix: Self.prefix, limit: limit, extensions: Self.extensions,
            expected: "Juke plays audiobooks as M4B, M4A or MP3 files.")
    }

    /// The book in the file at `path` (to be stored under `key`), or a refusal; the cover its
    /// tags carry (an M4B's `covr`, an MP3's APIC) is stored beside it (`coverKey`), as a song's is.
    func read(path: String, key: StorageKey, filename: String, owner: UserID?, now: Date) throws -> UploadReceiver.Reading<Book> {
        do {
            let tags = try TagReader.read(path: path)
            guard tags.format == .mp4 || tags.format == .mp3 else {
                throw RuleRefusal.unprocessable("body", "Juke plays audiobooks as M4B, M4A or MP3 files; this is \(tags.format.rawValue).")
            }
            let chapters = try ChapterReader.read(path: path)
            let stem = (filename as NSString).deletingPathExtension
            var book = Book(
                id: BookID(rawValue: UUID()), owner: owner, origin: .upload,
                title: TextRules.cleanedOrNil(tags.album, limit: 300) ?? TextRules.cleanedOrNil(tags.title, limit: 300)
                    ?? TextRules.cleanedOrNil(stem, limit: 300) ?? "Untitled",
                author: TextRules.cleanedOrNil(tags.albumArtist, limit: 300) ?? TextRules.cleanedOrNil(tags.artist, limit: 300),
                file: key.rawValue, format: tags.format.rawValue, duration: chapters.duration, chapterSource: chapters.source.rawValue,
                chapters: chapters.chapters.map { Book.Chapter(title: TextRules.cleaned($0.title, limit: 300), start: $0.start, end: $0.end) },
                addedAt: now)
            guard let cover = tags.frontCover?.data, let coverKey = Self.coverKey(of: key, cover: cover) else { return .init(item: book) }
            book.coverFile = coverKey.rawValue
            return .init(item: book, companions: [coverKey: Data(cover)])
        } catch let error as MediaFormatError {
            throw RuleRefusal.unprocessable("body", "The file cannot be read as an audiobook: \(error)")
        }
    }

    /// Where a book's cover is kept beside it, named by what its bytes are
    /// (`dual/books/<id>.m4b.cover.png`): nil for bytes that are no picture a page shows.
    static func coverKey(of book: StorageKey, cover: [UInt8]) -> StorageKey? {
        guard let type = SongMediaRoutes.imageType(cover), let ext = type.split(separator: "/").last else { return nil }
        return StorageKey(book.rawValue + ".cover." + (ext == "jpeg" ? "jpg" : String(ext)))
    }
}
