import DualPlayer
import Hummingbird
import JukeCore
import JukePlatform

/// A book's audio: a byte stream with Range, so a plain route (documented in the contract
/// under "media", as the library's audio is).
struct BookAudioRoutes {
    let service: DualPlayerService
    let media: MediaRoutes<JukeRequestContext>
    /// This server's data folder: the demo is served from this server's own copy.
    let dataDirectory: String

    func register(on router: Router<JukeRequestContext>) {
        router.get("/api/v1/dual/books/:book_id/audio") { request, context in try await audio(request, context) }
        router.head("/api/v1/dual/books/:book_id/audio") { request, context in try await audio(request, context) }
        router.get("/api/v1/dual/books/:book_id/cover") { request, context in try await cover(request, context) }
    }

    func visibleBook(_ context: JukeRequestContext) async throws -> Book {
        let user = try CurrentRequest.requireUser()
        let id: BookID = try parseID(context.parameters.get("book_id") ?? "", field: "book_id")
        do {
            return try await service.book(id, for: user.id)
        } catch let refusal as RuleRefusal {
            throw APIError(refusal)
        }
    }

    func cover(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let book = try await visibleBook(context)
        guard let path = book.coverPath else { throw APIError(RuleRefusal.notFound("This book has no cover.")) }
        let isPNG = path.hasSuffix(".png")
        return try await media.serveFile(
            at: path, contentType: isPNG ? "image/png" : "image/jpeg", request, context, missing: "The cover is no longer on the server's disk.")
    }

    func audio(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let book = try await visibleBook(context)
        guard book.status == .ready else {
            throw APIError(status: .conflict, code: "book_not_ready", message: "The book is still downloading; it plays once its chapters are on the server.")
        }
        let path = book.origin == .demo ? DemoBookService.localPath(dataDirectory: dataDirectory) : book.path
        return try await media.serveFile(
            at: path, contentType: AudioMIME.type(format: book.format), request, context,
            missing: "The book's file is no longer on the server's disk.")
    }
}
