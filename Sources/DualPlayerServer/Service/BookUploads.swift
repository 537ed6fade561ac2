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

    /// Writes `body` to a new file in the books folder; returns its path.
    func receive(_ body: some AsyncSequence<ArraySlice<UInt8>, any Error>, filename: String) async throws -> String {
        let ext = (filename as NSString).pathExtension.lowercased()
        guard Self.extensions.contains(ext) else {
            throw RuleRefusal.unprocessable("filename", "Juke plays audiobooks as M4B, M4A or MP3 files.")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/\(UUID().uuidString.lowercased()).\(ext)"
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw APIError(status: .internalServerError, code: "storage", message: "The server cannot write to its books folder.")
        }
        var written = 0
        do {
            for try await chunk in body {
                written += chunk.count
                guard written <= limit else { throw APIError.tooLarge(limit) }
                try handle.write(contentsOf: chunk)
            }
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        guard written > 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw RuleRefusal.unprocessable("body", "The upload is empty: there is no audiobook in it.")
        }
        return path
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
                title: String((tags.album ?? tags.title ?? stem).prefix(300)), author: (tags.albumArtist ?? tags.artist).map { String($0.prefix(300)) },
                path: path, format: tags.format.rawValue, duration: chapters.duration, chapterSource: chapters.source.rawValue,
                chapters: chapters.chapters.map { Book.Chapter(title: $0.title, start: $0.start, end: $0.end) }, addedAt: now)
        } catch let error as MediaFormatError {
            try? FileManager.default.removeItem(atPath: path)
            throw RuleRefusal.unprocessable("body", "The file cannot be read as an audiobook: \(error)")
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }
}
