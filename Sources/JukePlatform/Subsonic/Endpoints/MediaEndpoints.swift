import Foundation
import Hummingbird
import JukeCore
import Library
import NIOCore
import Storage

/// stream, download and getCoverArt: bytes, not an envelope (a failure is still one).
enum MediaEndpoints {
    /// What `stream` sends: the file itself (with Range), or a transcode through the
    /// transcoder the browsers' player uses. `format=raw` asks for the file; a named format
    /// or a bit rate below the file's asks for a transcode (Opus when asked for, else MP3,
    /// which every Subsonic player plays); `timeOffset` starts a transcode there (the
    /// transcodeOffset extension). Without ffmpeg the file is sent as it is.
    enum StreamChoice: Equatable {
        case original
        case transcode(TranscodeTarget, start: Int)
    }

    static func streamChoice(_ parameters: SubsonicParameters, track: Track, canTranscode: Bool) throws(SubsonicError) -> StreamChoice {
        let format = parameters.string("format")?.lowercased()
        let maxBitRate = try parameters.int("maxBitRate", default: 0, in: 0...100_000) ?? 0
        let offset = try parameters.int("timeOffset", default: 0, in: 0...1_000_000) ?? 0
        guard canTranscode, format != "raw" else { return .original }
        let fileBitRate = track.duration > 0 ? Int(Double(track.fileSize) * 8 / track.duration / 1000) : 0
        let wanted = format.flatMap { $0.isEmpty ? nil : $0 }
        let suffix = SubsonicItems.suffix(track)
        let sameFormat = wanted == nil || wanted == suffix || (wanted == "mp3" && track.format == "mp3")
        let lower = maxBitRate > 0 && maxBitRate < fileBitRate
        guard !sameFormat || lower || offset > 0 else { return .original }
        let target: TranscodeTarget = wanted == "opus" ? .opus : .mp3
        if track.duration > 0, Double(offset) >= track.duration {
            throw SubsonicError.invalid("timeOffset", "is past the song's end.")
        }
        return .transcode(target, start: offset)
    }

    /// The app that plays `call`'s `id`, when it is one of an app's (`SubsonicMedia`).
    static func appMedia(_ call: SubsonicCall, in media: [SubsonicMedia]) -> (SubsonicMedia, String)? {
        guard let id = call.parameters.string("id"), let source = media.first(where: { $0.serves(id) }) else { return nil }
        return (source, id)
    }

    static func all(platform: Platform, appMedia apps: [SubsonicMedia] = []) -> [SubsonicEndpoint] {
        let library = platform.library
        let media = MediaRoutes<JukeRequestContext>(platform: platform)
        let missing = "The track's file is no longer on the server's disk; rescan the library."

        @Sendable func track(_ call: SubsonicCall) async throws -> (Track, String) {
            guard case .track(let id) = try SubsonicID.read(call.parameters), let track = try await library.track(id: id) else {
                throw SubsonicError.notFound("Song")
            }
            // Served only from its real path inside a library folder (as the catalog's audio).
            guard let real = LibraryPaths.realPath(track.path), LibraryPaths.isInside(real, anyOf: try await library.folders().map(\.path)) else {
                throw SubsonicError.notFound("The song's file")
            }
            return (track, real)
        }

        return [
            SubsonicEndpoint("stream") { call in
                if let (app, id) = appMedia(call, in: apps) { return .response(try await app.audio(call, id, false)) }
                let (track, path) = try await track(call)
                switch try streamChoice(call.parameters, track: track, canTranscode: platform.transcoder != nil) {
                case .original:
                    return .response(
                        try await media.serveFile(at: path, contentType: AudioMIME.type(format: track.format), call.request, call.context, missing: missing))
                case .transcode(let target, let start):
                    return .response(try await media.serveTranscode(of: .file(path), to: target, start: start, call.request, call.context, missing: missing))
                }
            },
            SubsonicEndpoint("download") { call in
                if let (app, id) = appMedia(call, in: apps) { return .response(try await app.audio(call, id, true)) }
                let (track, path) = try await track(call)
                var response = try await media.serveFile(
                    at: path, contentType: AudioMIME.type(format: track.format), call.request, call.context, missing: missing)
                response.headers[.contentDisposition] = ContentDisposition.attachment(named: (path as NSString).lastPathComponent)
                return .response(response)
            },
            SubsonicEndpoint("getCoverArt") { call in
                // size is read (a wrong one is refused) but the cover is sent as it was
                // embedded: Juke keeps no resized copies, and players scale what they get.
                _ = try call.parameters.int("size", in: 1...10_000)
                if let (app, id) = appMedia(call, in: apps) { return .response(try await app.cover(call, id)) }
                guard let hash = try await artworkHash(call.parameters, library), let art = try await library.artwork(hash: hash) else {
                    throw SubsonicError.notFound("Cover art")
                }
                let etag = "\"\(hash)\""
                var headers: HTTPFields = [.eTag: etag, .cacheControl: "private, max-age=86400"]
                if call.request.headers[.ifNoneMatch]?.contains(etag) == true { return .response(Response(status: .notModified, headers: headers)) }
                headers[.contentType] = art.mimeType
                headers[.contentLength] = String(art.data.count)
                return .response(Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: art.data))))
            },
        ]
    }

    /// The cover an ID stands for: a track's own, an album's (its cover track's), an
    /// artist's (its first album with one).
    static func artworkHash(_ parameters: SubsonicParameters, _ library: LibraryStore) async throws -> String? {
        switch try SubsonicID.read(parameters) {
        case .track(let id): return try await library.track(id: id)?.artworkHash
        case .album(let id):
            guard let trackID = try await library.album(id: id)?.artworkTrackID else { return nil }
            return try await library.track(id: trackID)?.artworkHash
        case .artist(let id):
            for album in try await library.albums(.init(order: .year, artistID: id, limit: 20)).albums {
                if let trackID = album.artworkTrackID, let hash = try await library.track(id: trackID)?.artworkHash { return hash }
            }
            return nil
        }
    }
}
