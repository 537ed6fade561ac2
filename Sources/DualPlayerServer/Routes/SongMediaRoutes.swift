import DualPlayer
import Foundation
import Hummingbird
import JukeCore
import JukePlatform
import MediaFormats
import MediaStorage
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
        let missing = "The song's file is no longer stored."
        guard let key = StorageKey(song.file) else { throw APIError(status: .notFound, code: "file_missing", message: missing) }
        let files = songs.uploads.files
        // MP4 holds AAC or ALAC: kept at upload, or read from the file's own header for a
        // song kept in the data folder before Juke kept it.
        let codec = song.codec ?? (song.format == "mp4" ? files.localPath(key).flatMap { (try? TagReader.read(path: $0))?.codec } : nil)
        return try await media.servePlayable(
            stored: key, in: files, format: song.format, codec: codec, duration: song.duration, request, context, missing: missing)
    }

    /// The front cover, stored beside the song when it came (`SongUploads.coverKey`); a song
    /// kept in the data folder before Juke stored covers has it read from its own tags.
    func artwork(_ context: JukeRequestContext) async throws -> Response {
        let song = try await visibleSong(context)
        let none = APIError(RuleRefusal.notFound("This song has no cover."))
        guard song.hasArtwork else { throw none }
        let files = songs.uploads.files
        var data: [UInt8]?
        if let key = SongUploads.coverKey(of: song), try await files.info(key) != nil {
            var bytes: [UInt8] = []
            for try await buffer in try await files.read(key, range: nil).body { bytes += buffer.readableBytesView }
            data = bytes
        } else if let path = StorageKey(song.file).flatMap(files.localPath) {
            data = (try? TagReader.read(path: path))?.frontCover?.data
        }
        guard let data, let type = Self.imageType(data) else { throw none }
        return Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "private, max-age=86400", .xContentTypeOptions: "nosniff"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
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
