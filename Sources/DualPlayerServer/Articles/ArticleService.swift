import Articles
import DualPlayer
import ExternalTools
import Foundation
import JukeCore
import JukePlatform
import Logging
import MediaStorage
import Providers
import Synchronization

/// Articles read aloud: imported from a web address (fetched by the server under the address
/// policy) or a file, their readable text extracted (`Articles`), each account's reading
/// position, and the article spoken on the server by espeak-ng into audio the speech player
/// plays with a cue per sentence.
public struct ArticleService: Sendable {
    let store: ArticleStore
    let fetcher: WebFetcher
    /// Where spoken articles are kept, and where one is made first on this server.
    let files: any MediaStore
    let scratch: String
    /// Where spoken articles are kept in the media storage.
    static let prefix = "dual/articles"
    let clock: WallClock
    let logger: Logger
    let making: Making
    /// Where documents are read: off the server's threads, a few at once.
    let reading: ReadingPool
    /// poppler's pdftotext where the system has it: it reads PDFs' text as well as poppler does.
    let pdfText: PopplerText?
    /// The server's tool slots: pdftotext and espeak-ng each wait for one.
    let tools: ToolSlots

    /// The largest page, book or file read (an ePub of a long novel with its images is a few MB).
    static let pageLimit: Int64 = 50 * 1024 * 1024
    /// The most sentences one article is spoken in (a book-length page is cut there, and says so).
    static let maxSentences = 5000

    /// Where speaking runs (minutes of espeak-ng for a long article).
    let background: BackgroundWork

    init(
        store: ArticleStore, fetcher: WebFetcher, reading: ReadingPool, files: any MediaStore, scratch: String, clock: WallClock, background: BackgroundWork,
        tools: ToolSlots = ToolSlots(), logger: Logger
    ) {
        self.background = background
        self.tools = tools
        self.reading = reading
        self.pdfText = PopplerText.locate()
        self.store = store
        self.fetcher = fetcher
        self.files = files
        self.scratch = scratch
        self.clock = clock
        self.logger = logger
        self.making = Making()
    }

    // MARK: Importing

    /// Why a page could not be fetched, in plain words.
    static func unfetched(_ error: WebFetchError) -> String {
        switch error {
        case .tooLarge: "The page is larger than Juke reads (\(error.description))."
        case .tooManyRedirects: "The page could not be fetched: its address redirected too many times."
        default: "The page could not be fetched: the site did not answer. Check the address, or try again later."
        }
    }

    /// Fetches a web page (or text) and keeps its article for `owner`.
    public func importURL(_ address: String, for owner: UserID) async throws -> ArticleStore.Stored {
        guard let url = WebAddress(address, limit: 2000)?.url else {
            throw RuleRefusal.invalid("url", "Give the article's web address (http or https).")
        }
        let answer: WebAnswer
        let body: [UInt8]
        do {
            (answer, body) = try await fetcher.document(url, headers: ["Accept": "text/html, application/xhtml+xml, text/plain;q=0.9"], limit: Self.pageLimit)
        } catch let error as WebFetchError {
            if case .privateNetwork = error {
                throw APIError(
                    status: .unprocessableContent, code: "private_network", message: "Juke does not fetch pages from inside its own network: \(error).",
                    field: "url")
            }
            // The library's words (a host not resolved, a TLS failure) go to the log; the
            // person reads what could not be done.
            logger.info("an article's page could not be fetched", metadata: ["error": "\(error)"])
            throw APIError(status: .badGateway, code: "page_unavailable", message: Self.unfetched(error))
        }
        guard (200..<300).contains(answer.status) else {
            throw APIError(status: .badGateway, code: "page_unavailable", message: "The site answered HTTP \(answer.status).")
        }
        let type = answer.contentType ?? "text/html"
        let charset = answer.charset
        let name = url.lastPathComponent.isEmpty ? (url.host ?? "article") : url.lastPathComponent
        let format: String
        let article: Article
        do {
            if type == "application/pdf" {
                (format, article) = ("pdf", try await readPDF(body, name: url.lastPathComponent.isEmpty ? nil : url.lastPathComponent))
            } else {
                (format, article) = try await reading.read { () throws -> (String, Article) in
                    if type == "application/epub+zip" {
                        return ("epub", try EPubReader.read(body))
                    } else if type.hasPrefix("text/plain") {
                        return ("text", try TextArticle.read(body, name: name))
                    } else if type.contains("html") || type.contains("xml") {
                        return ("html", try ArticleExtractor.extract(html: body, httpCharset: charset))
                    }
                    throw ArticleError.unreadable("The address answers \(type), which is not a page or text Juke reads aloud.")
                }
            }
        } catch let error as ArticleError {
            throw APIError(status: .unprocessableContent, code: "no_article", message: error.description, field: "url")
        }
        return try await keep(article, format: format, source: answer.url.absoluteString, for: owner)
    }

    /// Keeps the article of an uploaded file: a web page (.html, .htm, .xhtml), an ePub, a PDF (its text layer), or text (.txt, .md).
    public func importFile(_ bytes: [UInt8], filename: String, for owner: UserID) async throws -> ArticleStore.Stored {
        let lower = filename.lowercased()
        let article: Article
        let format: String
        let read: @Sendable () throws -> (String, Article)
        if lower.hasSuffix(".pdf") {
            do {
                article = try await readPDF(bytes, name: filename)
            } catch let error as ArticleError {
                throw APIError(status: .unprocessableContent, code: "no_article", message: "\(filename): \(error)", field: "body")
            }
            return try await keep(article, format: "pdf", source: nil, for: owner)
        } else if lower.hasSuffix(".txt") || lower.hasSuffix(".text") || lower.hasSuffix(".md") {
            read = { ("text", try TextArticle.read(bytes, name: filename)) }
        } else if lower.hasSuffix(".html") || lower.hasSuffix(".htm") || lower.hasSuffix(".xhtml") {
            read = { ("html", try ArticleExtractor.extract(html: bytes)) }
        } else if lower.hasSuffix(".epub") {
            read = { ("epub", try EPubReader.read(bytes)) }
        } else {
            throw RuleRefusal.invalid(
                "filename", "Juke reads aloud web pages (.html, .htm, .xhtml), ePub books (.epub), PDFs (.pdf) and text files (.txt, .md).")
        }
        do {
            (format, article) = try await reading.read(read)
        } catch let error as ArticleError {
            throw APIError(status: .unprocessableContent, code: "no_article", message: "\(filename): \(error)", field: "body")
        }
        return try await keep(article, format: format, source: nil, for: owner)
    }

    /// A PDF's article: Juke's own reader checks the budgets first (a file past one is refused
    /// before pdftotext spends a minute on it), then pdftotext reads the text where the system
    /// has it, and Juke's own reader adds the outline, title and author.
    func readPDF(_ bytes: [UInt8], name: String?) async throws -> Article {
        guard let pdfText else { return try await reading.read { try PDFReader.read(bytes, text: nil, name: name) } }
        try await reading.read { try PDFReader.checkBudgets(bytes) }
        let text: String?
        do {
            // A slot, or 503 with Retry-After when every one is taken and the line is full.
            text = try await tools.run { try await pdfText.text(of: bytes) }
        } catch PopplerText.Refusal.tooBig(let why) {
            throw ArticleError.tooBig(why)
        }
        return try await reading.read { try PDFReader.read(bytes, text: text, name: name) }
    }

    func keep(_ article: Article, format: String, source: String?, for owner: UserID) async throws -> ArticleStore.Stored {
        let stored = ArticleStore.Stored(
            id: ArticleID(rawValue: UUID()), owner: owner, sourceURL: source, format: format, article: article, addedAt: clock.now())
        try await store.add(stored)
        logger.info("article added", metadata: ["words": "\(article.wordCount)", "chapters": "\(article.chapters.count)"])
        return stored
    }

    // MARK: Reading

    public func articles(of owner: UserID) async throws -> [(ArticleStore.Stored, ArticlePosition?, ArticleSpeech?)] {
        var out: [(ArticleStore.Stored, ArticlePosition?, ArticleSpeech?)] = []
        for stored in try await store.articles(of: owner) {
            out.append((stored, try await store.position(of: owner, in: stored.id), try await store.speech(of: stored.id)))
        }
        return out
    }

    /// `user`'s own article, or 404.
    public func article(_ id: ArticleID, for user: UserID) async throws -> ArticleStore.Stored {
        guard let stored = try await store.article(id), stored.owner == user else { throw RuleRefusal.notFound("No such article in your list.") }
        return stored
    }

    public func position(_ id: ArticleID, for user: UserID) async throws -> ArticlePosition? {
        try await store.position(of: user, in: id)
    }

    public func savePosition(chapter: Int, word: Int, updatedAt: Int64, in id: ArticleID, for user: UserID) async throws -> ArticlePosition {
        let stored = try await article(id, for: user)
        let position = try ArticlePosition.validated(chapter: chapter, word: word, updatedAt: updatedAt, chapters: stored.article.chapters.count)
        return try await store.save(position, of: user, in: id)
    }

    public func delete(_ id: ArticleID, for user: UserID) async throws {
        _ = try await article(id, for: user)
        if let key = try await store.speech(of: id)?.file.flatMap(StorageKey.init) { try await files.delete(key) }
        try await store.delete(id)
    }

    // MARK: Spoken on the server

    public func speech(_ id: ArticleID, for user: UserID) async throws -> ArticleSpeech? {
        _ = try await article(id, for: user)
        return try await store.speech(of: id)
    }

    /// Starts speaking the article (in the background); returns what there is now.
    public func speak(_ id: ArticleID, for user: UserID) async throws -> ArticleSpeech {
        let stored = try await article(id, for: user)
        if let existing = try await store.speech(of: id), existing.status == .ready || (existing.status == .making && making.contains(id)) {
            return existing
        }
        guard case .success(let speaker) = SpokenTrack.find(slots: tools) else {
            throw APIError(
                status: .conflict, code: "no_voice", message: "This server has no espeak-ng or ffmpeg to speak articles; the browser's own voice reads them.")
        }
        let plan = Self.sentences(of: stored.article)
        let start = ArticleSpeech(status: .making, done: 0, total: plan.count)
        try await store.save(start, of: id)
        guard making.begin(id) else { return start }
        let store = store
        let key = try StorageKey(checking: "\(Self.prefix)/\(id).mp3")
        let path = "\(scratch)/article-\(id).mp3"
        let files = files
        let logger = logger
        let making = making
        let article = stored.article
        background.start("article speech") {
            defer { making.end(id) }
            let progress = ProgressBox()
            let result = await withTaskGroup(of: Void.self, returning: ArticleSpeech.self) { group in
                // Progress for the page, every second while espeak-ng works.
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(1))
                        if Task.isCancelled { return }
                        try? await store.save(ArticleSpeech(status: .making, done: progress.value, total: plan.count), of: id)
                    }
                }
                defer { group.cancelAll() }
                do {
                    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    defer { try? FileManager.default.removeItem(atPath: path) }
                    let times = try await speaker.write(plan.map(\.text), to: path, title: article.title, artist: article.author ?? "Juke") { done in
                        progress.set(done)
                    }
                    try await files.store(file: path, as: key, contentType: "audio/mpeg")
                    return Self.speech(plan: plan, times: times, article: article, file: key.rawValue)
                } catch {
                    logger.error("could not speak an article", metadata: ["article": "\(id)", "error": "\(error)"])
                    return ArticleSpeech(status: .failed, done: progress.value, total: plan.count, failure: "\(error)")
                }
            }
            // The page waits while the speech is "making": a final save lost to a moment's
            // outage would leave it waiting for good, so it is tried again, for minutes.
            do {
                try await Retrying.backingOff(attempts: 12).run {
                    try await store.save(result, of: id)
                } failed: { error, attempt in
                    logger.warning("could not record an article's speech", metadata: ["article": "\(id)", "attempt": "\(attempt)", "error": "\(error)"])
                }
            } catch {
                logger.error(
                    "an article's speech stays unrecorded: it is made again when asked", metadata: ["article": "\(id)", "error": "\(error)"])
            }
        }
        return start
    }

    /// Every sentence to speak, with its chapter and the index of its first word there.
    static func sentences(of article: Article) -> [(text: String, chapter: Int, word: Int)] {
        var out: [(text: String, chapter: Int, word: Int)] = []
        for (c, chapter) in article.chapters.enumerated() {
            // The chapter's title is read first, as a heading is; words are counted in its
            // paragraphs only (as the page counts them).
            for sentence in Sentences.split(chapter.title) where out.count < maxSentences { out.append((sentence, c, 0)) }
            var word = 0
            for paragraph in chapter.paragraphs {
                for sentence in Sentences.split(paragraph) where out.count < maxSentences {
                    out.append((sentence, c, word))
                    word += sentence.split(separator: " ").count
                }
            }
        }
        return out
    }

    static func speech(plan: [(text: String, chapter: Int, word: Int)], times: [(start: Double, end: Double)], article: Article, file: String)
        -> ArticleSpeech
    {
        let cues = zip(plan, times).map { ArticleSpeech.Cue(start: $1.start, end: $1.end, text: $0.text, chapter: $0.chapter, word: $0.word) }
        let duration = times.last?.end ?? 0
        var chapters: [Book.Chapter] = []
        for (index, chapter) in article.chapters.enumerated() {
            guard let first = cues.first(where: { $0.chapter == index }) else { continue }
            let end = cues.first(where: { $0.chapter > index })?.start ?? duration
            chapters.append(Book.Chapter(title: chapter.title, start: first.start, end: end))
        }
        return ArticleSpeech(status: .ready, done: cues.count, total: cues.count, file: file, duration: duration, chapters: chapters, cues: cues)
    }

    /// Articles being spoken by this server (one job each).
    final class Making: Sendable {
        private let ids = Mutex<Set<ArticleID>>([])
        func begin(_ id: ArticleID) -> Bool { ids.withLock { $0.insert(id).inserted } }
        func end(_ id: ArticleID) { _ = ids.withLock { $0.remove(id) } }
        func contains(_ id: ArticleID) -> Bool { ids.withLock { $0.contains(id) } }
    }

    final class ProgressBox: Sendable {
        private let done = Mutex(0)
        func set(_ value: Int) { done.withLock { $0 = value } }
        var value: Int { done.withLock { $0 } }
    }
}
