import DualPlayer
import Hummingbird
import JukeCore
import JukePlatform
import MediaStorage

/// An article spoken on the server: its MP3 with Range (a plain route, documented under "media").
struct ArticleAudioRoutes {
    let articles: ArticleService
    let media: MediaRoutes<JukeRequestContext>

    func register(on router: Router<JukeRequestContext>) {
        router.get("/api/v1/dual/articles/:article_id/speech/audio") { request, context in try await audio(request, context) }
        router.head("/api/v1/dual/articles/:article_id/speech/audio") { request, context in try await audio(request, context) }
    }

    func audio(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let user = try CurrentRequest.requireUser()
        let id: ArticleID = try parseID(context.parameters.get("article_id") ?? "", field: "article_id")
        let speech = try await articles.speech(id, for: user.id)
        guard let speech, speech.status == .ready, let key = speech.file.flatMap(StorageKey.init) else {
            throw APIError.notFound("spoken audio of this article")
        }
        return try await media.serveStored(
            key, in: articles.files, contentType: "audio/mpeg", request, context, missing: "The spoken article is no longer stored.")
    }
}
