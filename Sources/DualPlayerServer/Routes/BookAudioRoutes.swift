import DualPlayer
import Hummingbird
import JukeCore
import JukePlatform
import MediaStorage

/// A book's audio: a byte stream with Range, so a plain route (documented in the contract
/// under "media", as the library's audio is).
struct BookAudioRoutes {
    let service: DualPlayerService
    let media: MediaRoutes<JukeRequestContext>
    /// Where books are kept (uploads, LibriVox's), and this server's own data folder, where
    /// its copy of the demo is.
    let files: any MediaStore
    let ownFiles: any MediaStore

    func register(on router: Router<JukeRequestContext>) {
        router.get("/api/v1/dual/books/:book_id/audio") { request, context in try await audio(request, context) }
        router.head("/api/v1/dual/books/:book_id/audio") { request, context in try await audio(request, context) }
        router.get("/api/v1/dual/books/:book_id/chapters/:index/audio") { request, context in try await chapterAudio(request, context) }
        router.head("/api/v1/dual/books/:book_id/chapters/:index/audio") { request, context in try await chapterAudio(request, context) }
        router.get("/api/v1/dual/books/:book_id/cover") { request, context in try await cover(request, context) }
    }

    func visibleBook(_ context: JukeRequestContext) async throws -> Book {
        let user = try CurrentRequest.requireUser()
        let id: BookID = try parseID(context.parameters.get("book_id") ?? "", field: "book_id")
        // A refusal is mapped to its response by the error middleware, as every route's is.
        return try await service.book(id, for: user.id)
    }

    func cover(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        try await cover(of: try await visibleBook(context), request, context)
    }

    /// A book's cover (here, and for a Subsonic player's getCoverArt).
    func cover(of book: Book, _ request: Request, _ context: JukeRequestContext) async throws -> Response {
        guard let key = book.coverFile.flatMap(StorageKey.init) else { throw APIError(RuleRefusal.notFound("This book has no cover.")) }
        return try await media.serveStored(
            key, in: files, contentType: Self.coverTypes[key.pathExtension] ?? "image/jpeg", request, context,
            missing: "The cover is no longer stored.")
    }

    /// A cover's type by its key's extension, which its bytes decided when it was stored
    /// (`BookUploads.coverKey`; LibriVox's covers are JPEG).
    static let coverTypes = ["png": "image/png", "jpg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"]

    /// A book that plays: ready, and where its file is kept.
    func playableBook(_ context: JukeRequestContext) async throws -> (book: Book, key: StorageKey, store: any MediaStore) {
        try playable(try await visibleBook(context))
    }

    func playable(_ book: Book) throws -> (book: Book, key: StorageKey, store: any MediaStore) {
        guard book.status == .ready else {
            throw APIError(status: .conflict, code: "book_not_ready", message: "The book is still downloading; it plays once its chapters are on the server.")
        }
        guard let key = StorageKey(book.file) else { throw APIError(status: .notFound, code: "file_missing", message: Self.missing) }
        return (book, key, book.origin == .demo ? ownFiles : files)
    }

    static let missing = "The book's file is no longer stored."

    func audio(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        try await audio(of: try await visibleBook(context), request, context)
    }

    /// A book's file with Range (here, and for a Subsonic player's stream and download).
    func audio(of book: Book, _ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let (book, key, store) = try playable(book)
        return try await media.serveStored(key, in: store, contentType: AudioMIME.type(format: book.format), request, context, missing: Self.missing)
    }

    /// One chapter as a file of its own, for a phone to keep that chapter without the whole
    /// book (a book is one file on the server).
    func chapterAudio(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let raw = context.parameters.get("index") ?? ""
        guard raw.count <= 6, let index = Int(raw), index >= 0 else {
            throw APIError.badRequest("index is a chapter's number, counted from 0.", field: "index")
        }
        let (book, key, store) = try await playableBook(context)
        // A refusal is mapped to its response by the error middleware, as every route's is.
        let chapter = try book.chapter(at: index)
        return try await media.serveClip(
            stored: key, in: store, format: book.format, from: chapter.start, to: chapter.end, request, context, missing: Self.missing)
    }
}
