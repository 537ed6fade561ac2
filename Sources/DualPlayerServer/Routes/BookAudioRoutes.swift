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
    }

    func audio(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let user = try CurrentRequest.requireUser()
        let id: BookID = try parseID(context.parameters.get("book_id") ?? "", field: "book_id")
        let book: Book
        do {
            book = try await service.book(id, for: user.id)
        } catch let refusal as RuleRefusal {
            throw APIError(refusal)
        }
        let path = book.origin == .demo ? DemoBookService.localPath(dataDirectory: dataDirectory) : book.path
        return try await media.serveFile(
            at: path, contentType: AudioMIME.type(format: book.format), request, context,
            missing: "The book's file is no longer on the server's disk.")
    }
}
