import DualPlayer
import Foundation
import JukeCore
import JukePlatform
import Logging
import MediaFormats
import MediaStorage
import Providers
import Synchronization

/// LibriVox books fetched onto the shelf: each section's MP3 downloaded to this server's
/// scratch folder (resumable: an interrupted section carries on from its last byte, finished
/// sections are kept, and a restart of the server picks unfinished books up again), then
/// joined into one MP3 with a chapter per section and stored (the data folder or the bucket). Progress is written to the book as it grows, so every page
/// and every server sees it; the live byte count of this server's downloads is kept here too.
final class LibriVoxDownloads: Sendable {
    let books: BookStore
    /// Where finished books and covers are kept, and where they are put together first.
    let files: any MediaStore
    let scratch: String
    /// The server's guarded fetcher: sections and covers are addresses LibriVox named.
    let fetcher: WebFetcher
    let logger: Logger
    /// One section's largest size: LibriVox's longest sections are a few hundred MB at 64 kbit/s.
    let sectionLimit: Int64 = 1 << 30

    /// Where the downloads run, so shutdown stops them (a restart carries on).
    let background: BackgroundWork

    private let running = Mutex<[BookID: BackgroundJob]>([:])

    init(books: BookStore, files: any MediaStore, scratch: String, fetcher: WebFetcher, background: BackgroundWork, logger: Logger) {
        self.books = books
        self.background = background
        self.files = files
        self.scratch = scratch
        self.fetcher = fetcher
        self.logger = logger
    }

    /// The folder on this server a book's sections are downloaded to and joined in.
    func directory(of id: BookID) -> String { scratch + "/librivox-\(id.description)" }

    /// Where the joined book is kept in the media storage.
    static func bookKey(of id: BookID) throws -> StorageKey { try StorageKey(checking: "dual/books/librivox-\(id.description)/book.mp3") }

    /// Where its cover is kept.
    static func coverKey(of id: BookID) throws -> StorageKey { try StorageKey(checking: "dual/books/librivox-\(id.description)/cover.jpg") }

    /// Starts (or carries on with) fetching `book`'s sections from `source`.
    func start(_ book: Book, source: LibriVoxBook) {
        running.withLock { running in
            guard running[book.id] == nil else { return }
            running[book.id] = background.start("LibriVox download") { [self] in
                await fetch(book, source: source)
                _ = self.running.withLock { $0.removeValue(forKey: book.id) }
            }
        }
    }

    func isRunning(_ id: BookID) -> Bool { running.withLock { $0[id] != nil } }

    /// Stops a download (the book is being removed).
    func cancel(_ id: BookID) {
        running.withLock { $0.removeValue(forKey: id) }?.cancel()
    }

    private func fetch(_ start: Book, source: LibriVoxBook) async {
        var book = start
        let directory = directory(of: book.id)
        let total = source.sections.count
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            if book.coverFile == nil, let cover = source.coverURL.flatMap(URL.init(string:)),
                let local = await fetchCover(cover, to: directory + "/cover.jpg")
            {
                let key = try Self.coverKey(of: book.id)
                try await files.store(file: local, as: key, contentType: "image/jpeg")
                book.coverFile = key.rawValue
            }
            var sections: [BookAssembler.Section] = []
            var finished: Int64 = 0
            for (index, section) in source.sections.enumerated() {
                guard let url = URL(string: section.listenURL) else { continue }
                let path = directory + String(format: "/section-%04d.mp3", index + 1)
                let download = SectionDownload(url: url, path: path, fetcher: fetcher, limit: sectionLimit)
                let base = finished
                let lastWrite = Mutex(Date.distantPast)
                let (id, shelf) = (book.id, books)
                try await download.run { bytes in
                    // On the shelf at most once a second: progress is for people, not a log.
                    let now = Date()
                    let due = lastWrite.withLock { last in
                        guard now.timeIntervalSince(last) >= 1 else { return false }
                        last = now
                        return true
                    }
                    guard due else { return }
                    try? await shelf.updateProgress(id, Book.Download(sectionsDone: index, sectionsTotal: total, bytes: base + bytes))
                }
                try Task.checkCancellation()
                finished += (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
                sections.append(BookAssembler.Section(path: path, title: section.title))
                book.download = Book.Download(sectionsDone: index + 1, sectionsTotal: total, bytes: finished)
                try await books.update(book)
            }
            let output = directory + "/book.mp3"
            let chapters = try BookAssembler.assemble(sections, title: book.title, author: book.author, to: output)
            let key = try Self.bookKey(of: book.id)
            try await files.store(file: output, as: key, contentType: "audio/mpeg")
            book.file = key.rawValue
            book.format = "mp3"
            book.duration = chapters.duration
            book.chapterSource = chapters.source.rawValue
            book.chapters = chapters.chapters.map { Book.Chapter(title: $0.title, start: $0.start, end: $0.end) }
            book.status = .ready
            book.download = Book.Download(sectionsDone: total, sectionsTotal: total, bytes: finished)
            try await books.update(book)
            for section in sections { try? FileManager.default.removeItem(atPath: section.path) }
            logger.info("dual player: LibriVox book ready", metadata: ["book": "\(book.title)", "chapters": "\(book.chapters.count)"])
        } catch is CancellationError {
            return
        } catch {
            if Task.isCancelled { return }
            book.status = .failed
            let done = book.download?.sectionsDone ?? 0
            book.download = Book.Download(sectionsDone: done, sectionsTotal: total, bytes: book.download?.bytes ?? 0, failure: Self.describe(error))
            logger.warning("dual player: LibriVox download stopped", metadata: ["book": "\(book.title)", "error": "\(error)"])
            // Unrecorded, the shelf would show the book downloading for good.
            await Self.record(book, in: books, logger: logger)
        }
    }

    /// Stores a book's stopped download, tried again for a moment's outage, and logged when
    /// it cannot be (the shelf then shows it downloading until the next restart resumes it).
    static func record(_ book: Book, in books: BookStore, logger: Logger) async {
        do {
            try await Retrying.backingOff(attempts: 5).run { try await books.update(book) }
        } catch {
            logger.error("dual player: a LibriVox book's stopped download is not recorded", metadata: ["book": "\(book.id)", "error": "\(error)"])
        }
    }

    /// The cover, when it is an image of a sensible size; nil otherwise (the book plays without).
    private func fetchCover(_ url: URL, to path: String) async -> String? {
        let download = SectionDownload(url: url, path: path, fetcher: fetcher, limit: 10 << 20)
        do {
            try await download.run { _ in }
            let head = [UInt8]((try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 4)) ?? Data())
            let isImage = head.starts(with: [0xFF, 0xD8, 0xFF]) || head.starts(with: [0x89, 0x50, 0x4E, 0x47])
            guard isImage else {
                try? FileManager.default.removeItem(atPath: path)
                return nil
            }
            return path
        } catch {
            try? FileManager.default.removeItem(atPath: download.partPath)
            return nil
        }
    }

    /// Why a download stopped, in words for the shelf.
    static func describe(_ error: any Error) -> String {
        switch error as? WebFetchError {
        // The detail (a library's words) is in the log beside it.
        case .unreachable: return "the connection to the archive failed"
        case .malformed: return "the archive's answer could not be read"
        case let refused?: return refused.description
        case nil: return (error as? SectionDownload.Failure)?.words ?? "something went wrong on the server"
        }
    }
}
