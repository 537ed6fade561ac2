import DualPlayer
import Foundation
import JukeCore
import JukePlatform
import Logging
import Providers

/// Dual Player's LibriVox: its catalogue searched by the server, and a book put on a
/// listener's shelf by downloading its sections to the server (`LibriVoxDownloads`).
struct LibriVoxService: Sendable {
    let client: LibriVox
    let downloads: LibriVoxDownloads
    let books: BookStore
    let clock: WallClock
    let logger: Logger

    /// Books whose title or author starts with the words given.
    func search(title: String?, author: String?, limit: Int) async throws -> [LibriVoxBook] {
        for (field, value) in [("title", title), ("author", author)] {
            guard (value ?? "").unicodeScalars.count <= 200, TextRules.isAllowed(value ?? "")
            else { throw RuleRefusal.invalid(field, "\(field) is at most 200 characters, with no control characters") }
        }
        guard !(title ?? "").trimmingCharacters(in: .whitespaces).isEmpty || !(author ?? "").trimmingCharacters(in: .whitespaces).isEmpty else {
            throw RuleRefusal.invalid("title", "Search LibriVox by title or by author.")
        }
        do {
            return try await client.search(title: title, author: author, limit: limit)
        } catch {
            throw gatewayError(error)
        }
    }

    /// Puts LibriVox's book `id` on `user`'s shelf and starts fetching it; a book already there
    /// is returned as it is (and fetched on if it had stopped). `created` says which.
    func add(librivoxID id: String, for user: UserID) async throws -> (book: Book, created: Bool) {
        guard !id.isEmpty, id.count <= 12, id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw RuleRefusal.invalid("librivox_id", "A LibriVox id is a number.")
        }
        if let kept = try await books.book(sourceID: id, owner: user) {
            if kept.status == .failed { return (try await resume(kept.id, for: user), false) }
            return (kept, false)
        }
        let source = try await fetchSource(id)
        guard !source.sections.isEmpty else { throw RuleRefusal.unprocessable("librivox_id", "LibriVox lists no recordings for this book yet.") }
        let bookID = BookID(rawValue: UUID())
        // Its chapters from LibriVox's own lengths until the joined file says exactly.
        var at = 0.0
        let chapters = source.sections.map { section -> Book.Chapter in
            defer { at += Double(section.seconds) }
            return Book.Chapter(title: TextRules.cleaned(section.title, limit: 300), start: at, end: at + Double(section.seconds))
        }
        let book = Book(
            id: bookID, owner: user, origin: .librivox, title: TextRules.cleanedOrNil(source.title, limit: 300) ?? "Untitled",
            author: TextRules.cleanedOrNil(source.authors.joined(separator: ", "), limit: 300),
            file: try LibriVoxDownloads.bookKey(of: bookID).rawValue, format: "mp3", duration: at, chapterSource: "none", chapters: chapters,
            addedAt: clock.now(), status: .downloading, download: Book.Download(sectionsDone: 0, sectionsTotal: source.sections.count, bytes: 0),
            sourceID: id)
        try await books.add(book)
        downloads.start(book, source: source)
        logger.info("dual player: LibriVox book added", metadata: ["book": "\(book.title)", "sections": "\(source.sections.count)"])
        return (book, true)
    }

    /// Carries on with a download that stopped (a failure, or a restart of the server).
    func resume(_ id: BookID, for user: UserID) async throws -> Book {
        guard var book = try await books.book(id), book.isVisible(to: user) else { throw RuleRefusal.notFound("No such book.") }
        guard book.origin == .librivox, let sourceID = book.sourceID else {
            throw RuleRefusal.conflict("Only a LibriVox book is downloaded; this one is already on the server.")
        }
        guard book.status != .ready else { return book }
        if downloads.isRunning(id) { return book }
        let source = try await fetchSource(sourceID)
        book.status = .downloading
        book.download?.failure = nil
        try await books.update(book)
        downloads.start(book, source: source)
        return book
    }

    /// After a restart: every unfinished download whose files are on this server goes on.
    func resumeUnfinished() async {
        guard let unfinished = try? await books.downloading() else { return }
        for book in unfinished where FileManager.default.fileExists(atPath: downloads.directory(of: book.id)) {
            guard let owner = book.owner else { continue }
            do {
                _ = try await resume(book.id, for: owner)
            } catch {
                var stopped = book
                stopped.status = .failed
                logger.warning("dual player: LibriVox download not resumed after a restart", metadata: ["book": "\(book.title)", "error": "\(error)"])
                stopped.download?.failure = "could not carry on after a restart"
                await LibriVoxDownloads.record(stopped, in: books, logger: logger)
            }
        }
    }

    private func fetchSource(_ id: String) async throws -> LibriVoxBook {
        let found: LibriVoxBook?
        do {
            found = try await client.book(id: id)
        } catch {
            throw gatewayError(error)
        }
        guard let found else { throw RuleRefusal.notFound("LibriVox has no book \(id).") }
        return found
    }

    /// LibriVox failing, in plain words for the person searching (no host names, no library
    /// messages: those go to the log).
    func gatewayError(_ error: any Error) -> any Error {
        guard let failure = error as? LibriVoxError else { return error }
        if case .invalid(let why) = failure { return RuleRefusal.invalid("title", why) }
        logger.warning("LibriVox failed", metadata: ["why": "\(failure)"])
        if case .malformed = failure {
            return APIError(status: .badGateway, code: "librivox_unavailable", message: Self.unreadable)
        }
        return APIError(status: .badGateway, code: "librivox_unavailable", message: Self.unreachable)
    }

    static let unreachable = "Can't reach LibriVox right now. Try again in a moment."
    static let unreadable = "LibriVox sent an answer Juke can't read. Try again in a while."
}

extension LibriVoxService {
    /// A LibriVox book was taken off the shelf: its download stops and its files go (the
    /// stored book and cover, and what this server was downloading).
    func removed(_ book: Book) async {
        downloads.cancel(book.id)
        try? FileManager.default.removeItem(atPath: downloads.directory(of: book.id))
        for key in [try? LibriVoxDownloads.coverKey(of: book.id)].compactMap({ $0 }) {
            do {
                try await downloads.files.delete(key)
            } catch {
                logger.warning("a removed book's cover stays stored", metadata: ["book": "\(book.id)", "error": "\(error)"])
            }
        }
    }
}
