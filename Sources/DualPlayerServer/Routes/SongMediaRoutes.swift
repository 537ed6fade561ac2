import DualPlayer
import Foundation
import Hummingbird
import JukeCore
import JukePlatform
import MediaFormats
import NIOCore

/// An uploaded song's audio (a byte stream with Range) and the cover its tags carry: plain
/// routes, documented in the contract under "media" as the library's are.
struct SongMediaRoutes {
    let songs: SongService
    let media: MediaRoutes<JukeRequestContext>

    func register(on router: Router<JukeRequestContext>) {
        router.get("/api/v1/dual/songs/:song_id/audio") { request, context in try await audio(request, context) }
        router.head("/api/v1/dual/songs/:song_id/audio") { request, context in try await audio(request, context) }
        router.get("/api/v1/dual/songs/:song_id/artwork") { _, context in try await artwork(context) }
    }

    func visibleSong(_ context: JukeRequestContext) async throws -> Song {
        let user = try CurrentRequest.requireUser()
        let id: SongID = try parseID(context.parameters.get("song_id") ?? "", field: "song_id")
        // A refusal is mapped to its response by the error middleware, as every route's is.
        return try await songs.song(id, for: user.id)
    }

    func audio(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let song = try await visibleSong(context)
        // MP4 holds AAC or ALAC: kept at upload, or read from the file's own header for a
        // song stored before Juke kept it.
        let codec = song.codec ?? (song.format == "mp4" ? (try? TagReader.read(path: song.path))?.codec : nil)
        return try await media.servePlayable(
            at: song.path, format: song.format, codec: codec, duration: song.duration, request, context,
            missing: "The song's file is no longer on the server's disk.")
    }

    /// The front cover from the file's own tags, read when asked (covers are small; the file
    /// stays the one place the song's data lives).
    func artwork(_ context: JukeRequestContext) async throws -> Response {
        let song = try await visibleSong(context)
        guard song.hasArtwork, let cover = (try? TagReader.read(path: song.path))?.frontCover, let type = Self.imageType(cover.data) else {
            throw APIError(RuleRefusal.notFound("This song has no cover."))
        }
        return Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "private, max-age=86400", .xContentTypeOptions: "nosniff"],
            body: .init(byteBuffer: ByteBuffer(bytes: cover.data)))
    }

    /// The cover's type from its bytes, never from the tag's own claim: a file could call a
    /// page "image/jpeg", or a picture "text/html", and this origin serves it.
    static func imageType(_ data: [UInt8]) -> String? {
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if data.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if data.count > 12, data.starts(with: Array("RIFF".utf8)), data[8..<12].elementsEqual("WEBP".utf8) { return "image/webp" }
        return nil
    }
}
