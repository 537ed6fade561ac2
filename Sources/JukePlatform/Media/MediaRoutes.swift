import Foundation
import HTTPTypes
import Hummingbird
import JukeCore
import Library
import MediaStorage
import Storage

/// Audio and artwork: byte streams, so they are plain routes rather than generated ones
/// (the spec documents them under the "media" tag).
public struct MediaRoutes<Context: RequestContext>: Sendable {
    let library: LibraryStore
    /// Signed links let a track's audio play without a login (exported playlists).
    let links: MediaLinks?
    let clock: WallClock
    /// ffmpeg for what the asking browser cannot play; nil: such tracks are not playable.
    let transcoder: Transcoder?
    let fileIO = FileIO()

    public init(library: LibraryStore, links: MediaLinks? = nil, clock: WallClock = .system, transcoder: Transcoder? = nil) {
        self.library = library
        self.links = links
        self.clock = clock
        self.transcoder = transcoder
    }

    /// The routes as an app serves its media: the platform's library and transcoder.
    public init(platform: Platform) {
        self.init(library: platform.library, links: platform.mediaLinks, clock: platform.clock, transcoder: platform.transcoder)
    }

    public func register(on router: Router<Context>) {
        router.get("/api/v1/catalog/tracks/:track_id/audio") { request, context in try await audio(request, context) }
        router.head("/api/v1/catalog/tracks/:track_id/audio") { request, context in try await audio(request, context) }
        router.get("/api/v1/catalog/tracks/:track_id/artwork") { request, context in try await artwork(request, context) }
        router.get("/api/v1/catalog/tracks/:track_id/download") { request, context in try await download(request, context) }
    }

    private func track(_ context: Context) async throws -> Track {
        _ = try CurrentRequest.requireUser()
        let raw = context.parameters.get("track_id") ?? ""
        let id: TrackID = try parseID(raw, field: "track_id")
        guard let track = try await library.track(id: id) else { throw APIError.notFound("track") }
        return track
    }

    /// The latest a signed link may say it expires, as the contract bounds it: the end of 9999.
    static var latestExpiry: Int64 { 253_402_300_799 }

    func audio(_ request: Request, _ context: Context) async throws -> Response {
        let query = request.uri.queryParameters
        // A signed link's parts, checked as the contract states them even when unused.
        let expires = try query.get("expires").map { raw throws -> Int64 in
            guard let value = Int64(raw), (0...Self.latestExpiry).contains(value) else {
                throw APIError.badRequest("expires is seconds since 1970.", field: "expires")
            }
            return value
        }
        let signature = try query.get("signature").map { raw throws -> String in
            guard raw.utf8.count <= 100, raw.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
            else { throw APIError.badRequest("signature is the one an exported playlist carries.", field: "signature") }
            return raw
        }
        guard let signature else { return try await serveAudio(of: try await track(context), request, context) }
        // A signed link (an exported playlist in another player): no login, this track only.
        let id: TrackID = try parseID(context.parameters.get("track_id") ?? "", field: "track_id")
        guard let links, let expires, try await links.isValid(track: id, expires: expires, signature: signature, now: clock.now())
        else { throw APIError(status: .forbidden, code: "forbidden", message: "This link is not valid or has expired; export the playlist again.") }
        guard let track = try await library.track(id: id) else { throw APIError.notFound("track") }
        return try await serveAudio(of: track, request, context)
    }

    /// A track's file with Range, ETag and Last-Modified handling (the catalog's audio, and
    /// TuneTrivia's clips, which are served by round so their address names no song).
    ///
    /// The file is served from its real path, and only when that lies inside one of the
    /// library's folders: a scanned file since replaced by a symlink out of the library
    /// (to /etc/hostname, say) is not served.
    ///
    /// `untagged`: the audio without the file's tags and cover (TuneTrivia's clips, whose
    /// bytes must not hold the answer before the reveal); see `servePlayable`.
    public func serveAudio(of track: Track, untagged: Bool = false, _ request: Request, _ context: Context) async throws -> Response {
        let missing = "The track's file is no longer on the server's disk; rescan the library."
        guard let real = LibraryPaths.realPath(track.path) else { throw APIError(status: .notFound, code: "file_missing", message: missing) }
        guard LibraryPaths.isInside(real, anyOf: try await library.folders().map(\.path)) else {
            throw APIError(status: .notFound, code: "file_missing", message: "The track's file is no longer inside the library's folders; rescan the library.")
        }
        return try await servePlayable(
            at: real, format: track.format, codec: track.codec, duration: track.duration, untagged: untagged, request, context, missing: missing)
    }

    /// An audio file as the asking browser can play it: the file itself, or a transcode
    /// when the page said (`plays`, or the `juke_plays` cookie its script sets) that it
    /// cannot play the codec. `start` (whole seconds) starts a transcode there, for seeking.
    /// `untagged` never serves the file itself: a transcode carries no tags, and the original
    /// is copied without them (`serveUntaggedCopy`).
    public func servePlayable(
        at path: String, format: String, codec: String?, duration: Double?, untagged: Bool = false, _ request: Request, _ context: Context,
        missing: String
    ) async throws -> Response {
        try await servePlayable(
            .file(path), format: format, codec: codec, duration: duration, untagged: untagged, request, context, missing: missing)
    }

    /// `servePlayable` for a file in Juke's media storage (an uploaded song).
    public func servePlayable(
        stored key: StorageKey, in store: any MediaStore, format: String, codec: String?, duration: Double?, _ request: Request,
        _ context: Context, missing: String
    ) async throws -> Response {
        try await servePlayable(.stored(key, store), format: format, codec: codec, duration: duration, request, context, missing: missing)
    }

    func servePlayable(
        _ source: MediaSource, format: String, codec: String?, duration: Double?, untagged: Bool = false, _ request: Request, _ context: Context,
        missing: String
    ) async throws -> Response {
        let query = request.uri.queryParameters
        let playsText = query.get("plays") ?? request.cookies["juke_plays"]?.value
        let plays = try playsText.map { text throws -> BrowserPlays in
            guard let plays = BrowserPlays.parse(text) else {
                throw APIError.badRequest("plays lists codecs the browser plays, as \"mp3,aac,opus\".", field: "plays")
            }
            return plays
        }
        let start = try query.get("start").map { raw throws -> Int in
            guard let value = Int(raw), value >= 0, value <= 1_000_000 else {
                throw APIError.badRequest("start is whole seconds into the track.", field: "start")
            }
            if let duration, duration > 0, Double(value) >= duration {
                throw APIError.unprocessable("start is past the track's end (\(Int(duration)) s).", field: "start")
            }
            return value
        }
        switch PlaybackChoice.decide(format: format, codec: codec, plays: plays, canTranscode: transcoder != nil) {
        case .original where untagged:
            return try await serveUntaggedCopy(of: source, format: format, request, context, missing: missing)
        case .original:
            return try await serve(source, contentType: AudioMIME.type(format: format), request, context, missing: missing)
        case .unplayable:
            let name = PlaybackChoice.codec(format: format, codec: codec).uppercased()
            throw APIError(
                status: .notAcceptable, code: "not_playable_here",
                message: "This browser cannot play \(name), and the server has no ffmpeg to transcode it; download the original instead.")
        case .transcode(let target):
            return try await serveTranscode(of: source, to: target, start: start ?? 0, request, context, missing: missing)
        }
    }

    /// A file on disk as it is, or one in the media storage.
    func serve(_ source: MediaSource, contentType: String, _ request: Request, _ context: Context, missing: String) async throws -> Response {
        switch source {
        case .file(let path): try await serveFile(at: path, contentType: contentType, request, context, missing: missing)
        case .stored(let key, let store): try await serveStored(key, in: store, contentType: contentType, request, context, missing: missing)
        }
    }

    func serveTranscode(of input: MediaSource, to target: TranscodeTarget, start: Int, _ request: Request, _ context: Context, missing: String)
        async throws -> Response
    {
        guard let transcoder else { throw APIError(status: .notAcceptable, code: "not_playable_here", message: "The server cannot transcode.") }
        guard let version = try await input.version() else { throw APIError(status: .notFound, code: "file_missing", message: missing) }
        let source = Transcoder.Request(
            path: version.toolInput, size: version.size, modifiedMillis: version.modifiedMillis, target: target, start: start, identity: version.identity)
        // HEAD asks what a GET would get, not for the work: a transcode not yet made is not started.
        let output: Transcoder.Output? =
            request.method == .head ? await transcoder.cached(source).map { .cached(path: $0) } : try await transcoder.open(source)
        // Until a transcode is finished its length is not known: it streams, and once finished
        // the next request gets the cached file with Range.
        var streaming: HTTPFields = [.contentType: target.contentType, .cacheControl: "no-store", .acceptRanges: "none", .vary: "Cookie"]
        if let name = TranscodeTarget.header { streaming[name] = target.rawValue }
        switch output {
        case .cached(let file)?:
            var response = try await serveFile(at: file, contentType: target.contentType, request, context, missing: missing)
            response.headers[.vary] = "Cookie"
            if let name = TranscodeTarget.header { response.headers[name] = target.rawValue }
            return response
        case .streaming(let follower)?:
            return Response(status: .ok, headers: streaming, body: .init(asyncSequence: follower))
        case nil:
            return Response(status: .ok, headers: streaming)
        }
    }

    /// A stretch of an app's own file (an audiobook's chapter) as a file of its own, cut out
    /// with ffmpeg without re-encoding and then served with Range like any file. HEAD says
    /// what a GET would get without cutting it.
    public func serveClip(
        of path: String, format: String, from start: Double, to end: Double, _ request: Request, _ context: Context, missing: String
    ) async throws -> Response {
        try await serveClip(of: .file(path), format: format, from: start, to: end, request, context, missing: missing)
    }

    /// `serveClip` of a file in Juke's media storage (a book's chapter).
    public func serveClip(
        stored key: StorageKey, in store: any MediaStore, format: String, from start: Double, to end: Double, _ request: Request,
        _ context: Context, missing: String
    ) async throws -> Response {
        try await serveClip(of: .stored(key, store), format: format, from: start, to: end, request, context, missing: missing)
    }

    func serveClip(
        of input: MediaSource, format: String, from start: Double, to end: Double, _ request: Request, _ context: Context, missing: String
    ) async throws -> Response {
        guard let container = ClipContainer(format: format) else {
            throw APIError.unprocessable("Juke cuts chapters out of M4B, M4A and MP3 files; this one is \(format).", field: "format")
        }
        guard let transcoder else {
            throw APIError(
                status: .notAcceptable, code: "not_playable_here", message: "This server has no ffmpeg to cut a chapter out; keep the whole book instead.")
        }
        guard let version = try await input.version() else { throw APIError(status: .notFound, code: "file_missing", message: missing) }
        let clip = ClipRequest(
            path: version.toolInput, size: version.size, modifiedMillis: version.modifiedMillis, start: start, end: end, container: container,
            identity: version.identity)
        let file = request.method == .head ? await transcoder.cached(clip) : try await transcoder.clip(clip)
        guard let file else { return Response(status: .ok, headers: [.contentType: container.contentType, .cacheControl: "no-store"]) }
        return try await serveFile(at: file, contentType: container.contentType, request, context, missing: missing)
    }

    /// A whole file's audio without its tags, attached pictures or chapters: copied by ffmpeg
    /// (not re-encoded) into the file's own container, kept in the transcode cache, and served
    /// with Range like any file. A format with no such container (AIFF, WMA, …) is transcoded
    /// to MP3, which carries no tags either. Without ffmpeg it is refused rather than served
    /// as the original, whose tags would say what it is.
    func serveUntaggedCopy(of input: MediaSource, format: String, _ request: Request, _ context: Context, missing: String) async throws -> Response {
        guard let transcoder else {
            throw APIError(
                status: .notAcceptable, code: "not_playable_here",
                message: "This server has no ffmpeg to play the song without its tags (which would give it away); install ffmpeg on the server.")
        }
        guard let container = ClipContainer(copying: format) else {
            return try await serveTranscode(of: input, to: .mp3, start: 0, request, context, missing: missing)
        }
        guard let version = try await input.version() else { throw APIError(status: .notFound, code: "file_missing", message: missing) }
        let copy = ClipRequest.whole(
            path: version.toolInput, size: version.size, modifiedMillis: version.modifiedMillis, container: container, identity: version.identity)
        let file = request.method == .head ? await transcoder.cached(copy) : try await transcoder.clip(copy)
        guard let file else { return Response(status: .ok, headers: [.contentType: container.contentType, .cacheControl: "no-store"]) }
        return try await serveFile(at: file, contentType: container.contentType, request, context, missing: missing)
    }

    /// A file with Range, ETag and Last-Modified handling: a track's, or an app's own media
    /// (Dual Player's books). `missing` is the message when the file is gone.
    public func serveFile(at path: String, contentType: String, _ request: Request, _ context: Context, missing: String) async throws -> Response {
        guard let stamp = FileStamp(path: path) else {
            throw APIError(status: .notFound, code: "file_missing", message: missing)
        }
        let fileIO = self.fileIO
        return try await serveRanged(size: Int(stamp.size), etag: stamp.etag, modified: stamp.modified, contentType: contentType, request) { range in
            if let range { return try await fileIO.loadFile(path: path, range: range, context: context) }
            return try await fileIO.loadFile(path: path, context: context)
        }
    }

    /// A file in Juke's media storage (an app's book, song, episode, spoken article or cover)
    /// with Range, ETag and Last-Modified, as `serveFile` serves one on disk. From a bucket
    /// each request is a ranged GET to it, streamed through: the browser never needs to reach
    /// the bucket, and the account's check stays here (docs/ARCHITECTURE.md says why no
    /// presigned redirect).
    public func serveStored(
        _ key: StorageKey, in store: any MediaStore, contentType: String, _ request: Request, _ context: Context, missing: String
    ) async throws -> Response {
        if let path = store.localPath(key) {
            return try await serveFile(at: path, contentType: contentType, request, context, missing: missing)
        }
        guard let object = try await store.info(key) else { throw APIError(status: .notFound, code: "file_missing", message: missing) }
        return try await serveRanged(size: Int(object.size), etag: object.etag, modified: object.modified, contentType: contentType, request) {
            range in
            let bytes = try await store.read(key, range: range.map { Int64($0.lowerBound)...Int64($0.upperBound) })
            return ResponseBody(asyncSequence: bytes.body)
        }
    }

    /// The HTTP of serving a file, wherever its bytes are: the validators, 304, If-Range, the
    /// Range header (206, 416) and Content-Length. `bytes` reads the range asked (nil: all of
    /// it); it is not called for HEAD or an empty file.
    private func serveRanged(
        size: Int, etag: String, modified: Date, contentType: String, _ request: Request,
        bytes: (ClosedRange<Int>?) async throws -> ResponseBody
    ) async throws -> Response {
        var headers: HTTPFields = [
            .contentType: contentType,
            .acceptRanges: "bytes",
            .eTag: etag,
            .lastModified: HTTPDate.format(modified),
            .cacheControl: "private, max-age=3600",
        ]
        if notModified(request, etag: etag, modified: modified) {
            return Response(status: .notModified, headers: headers)
        }
        var rangeHeader = request.headers[.range]
        // If-Range: honour the range only if the client's copy is still current.
        if let ifRange = request.headers[.ifRange], ifRange != etag { rangeHeader = nil }
        func body(_ range: ClosedRange<Int>?) async throws -> ResponseBody {
            request.method == .head || size == 0 ? .init() : try await bytes(range)
        }
        switch ByteRange.parse(rangeHeader, fileSize: size) {
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        case .partial(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = String(range.count)
            return Response(status: .partialContent, headers: headers, body: try await body(range))
        case .whole:
            headers[.contentLength] = String(size)
            return Response(status: .ok, headers: headers, body: try await body(nil))
        }
    }

    /// The track's file exactly as it is on disk, as an attachment named as the file.
    func download(_ request: Request, _ context: Context) async throws -> Response {
        let track = try await track(context)
        let missing = "The track's file is no longer on the server's disk; rescan the library."
        guard let real = LibraryPaths.realPath(track.path), LibraryPaths.isInside(real, anyOf: try await library.folders().map(\.path)) else {
            throw APIError(status: .notFound, code: "file_missing", message: missing)
        }
        var response = try await serveFile(at: real, contentType: AudioMIME.type(format: track.format), request, context, missing: missing)
        response.headers[.contentDisposition] = ContentDisposition.attachment(named: (real as NSString).lastPathComponent)
        return response
    }

    func artwork(_ request: Request, _ context: Context) async throws -> Response {
        try await serveArtwork(of: try await track(context), request)
    }

    /// A track's embedded cover, cached by its hash (the catalog's, and a TuneTrivia big
    /// screen's once the answer is out).
    public func serveArtwork(of track: Track, _ request: Request) async throws -> Response {
        guard let hash = track.artworkHash, let art = try await library.artwork(hash: hash) else { throw APIError.notFound("artwork") }
        let etag = "\"\(hash)\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "private, max-age=86400"]
        if request.headers[.ifNoneMatch]?.contains(etag) == true { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = art.mimeType
        headers[.contentLength] = String(art.data.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: art.data)))
    }

    private func notModified(_ request: Request, etag: String, modified: Date) -> Bool {
        if let match = request.headers[.ifNoneMatch] {
            return match == "*" || match.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == etag }
        }
        if let since = request.headers[.ifModifiedSince].flatMap(HTTPDate.parse) {
            return modified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        }
        return false
    }
}

public enum AudioMIME {
    public static func type(format: String) -> String {
        switch format {
        case "mp3": "audio/mpeg"
        case "mp4": "audio/mp4"
        case "flac": "audio/flac"
        case "ogg_vorbis": "audio/ogg"
        case "opus": "audio/ogg; codecs=opus"
        case "wav": "audio/wav"
        case "aiff": "audio/aiff"
        case "dsf": "audio/dsf"
        case "asf": "audio/x-ms-wma"
        case "wavpack": "audio/x-wavpack"
        case "monkeys_audio": "audio/x-ape"
        case "musepack": "audio/x-musepack"
        default: "application/octet-stream"
        }
    }
}
