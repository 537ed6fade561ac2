import DualPlayer
import Foundation
import Hummingbird
import JukeCore
import JukePlatform

/// OPML export, an episode's audio (the server's copy, the demo's file, or the host's passed on, with
/// Range), and Juke's demo show as a podcast host serves it: `/dual/demo-podcast/feed.xml` and
/// its files, public as feeds are, so any podcast app can subscribe to it too.
struct EpisodeAudioRoutes {
    let podcasts: PodcastService
    let media: MediaRoutes<JukeRequestContext>
    let episodeMedia: EpisodeMedia
    let proxy: EpisodeProxy

    func register(on router: Router<JukeRequestContext>) {
        router.get("/api/v1/dual/episodes/:episode_id/audio") { request, context in try await audio(request, context) }
        router.head("/api/v1/dual/episodes/:episode_id/audio") { request, context in try await audio(request, context) }
        router.get("/api/v1/dual/podcasts/opml") { _, _ in try await opml() }
        router.get("/dual/demo-podcast/:file") { request, context in try await demo(request, context) }
        router.head("/dual/demo-podcast/:file") { request, context in try await demo(request, context) }
    }

    func audio(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let user = try CurrentRequest.requireUser()
        let id: EpisodeID = try parseID(context.parameters.get("episode_id") ?? "", field: "episode_id")
        return try await audio(of: try await podcasts.episode(id, for: user.id), request, context)
    }

    /// An episode's audio (here, and for a Subsonic player's stream and download).
    func audio(of episode: Episode, _ request: Request, _ context: JukeRequestContext) async throws -> Response {
        switch try await episodeMedia.audio(of: episode) {
        case .stored(let key, let type):
            return try await media.serveStored(
                key, in: episodeMedia.files, contentType: type, request, context, missing: "The episode's downloaded file is no longer stored.")
        case .file(let path, let type):
            return try await media.serveFile(at: path, contentType: type, request, context, missing: "The episode's file is no longer on the server's disk.")
        case .remote(let url, _):
            return try await proxy.response(for: url, fallbackType: EpisodeMedia.type(episode), request: request)
        }
    }

    /// The account's shows as an OPML file to download.
    func opml() async throws -> Response {
        let user = try CurrentRequest.requireUser()
        let text = try await podcasts.exportOPML(of: user.id)
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/x-opml; charset=utf-8", .contentDisposition: "attachment; filename=\"juke-podcasts.opml\"",
                .cacheControl: "private, no-store",
            ], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    func demo(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let name = context.parameters.get("file") ?? ""
        guard let path = episodeMedia.demoFile(DemoPodcastMaker.webPath + "/" + name) else { throw APIError.notFound("file") }
        let type: String
        switch (name as NSString).pathExtension {
        case "xml": type = "application/rss+xml; charset=utf-8"
        case "mp3": type = "audio/mpeg"
        case "vtt": type = "text/vtt; charset=utf-8"
        case "json": type = "application/json+chapters"
        default: throw APIError.notFound("file")
        }
        return try await media.serveFile(at: path, contentType: type, request, context, missing: "Juke's demo show has not been made on this server.")
    }
}
