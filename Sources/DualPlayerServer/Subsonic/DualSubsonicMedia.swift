import DualPlayer
import Foundation
import Hummingbird
import JukeCore
import JukePlatform

/// How a Subsonic player plays what getBookmarks and getPodcasts hand it: `stream` and
/// `download` of a `bk-` or `pe-` ID answer with the audio the page plays (a book's file, an
/// episode's server copy or its host's audio passed on, with Range); `getCoverArt` of a book
/// is its stored cover, of an episode or a channel the show's picture at its host (a redirect:
/// Juke keeps no copy of feeds' pictures).
struct DualSubsonicMedia: Sendable {
    let service: DualPlayerService
    let podcasts: PodcastService
    let books: BookAudioRoutes
    let episodes: EpisodeAudioRoutes

    var media: SubsonicMedia {
        SubsonicMedia(
            prefixes: DualSubsonicID.prefixes,
            audio: { call, id, download in try await audio(call, id, download: download) },
            cover: { call, id in try await cover(call, id) })
    }

    func audio(_ call: SubsonicCall, _ text: String, download: Bool) async throws -> Response {
        let user = try call.user
        var response: Response
        let name: String
        switch DualSubsonicID(text) {
        case .book(let id):
            let book = try await service.book(id, for: user.id)
            response = try await books.audio(of: book, call.request, call.context)
            name = book.title + "." + (DualSubsonicItems.suffix(of: book.file) ?? "m4b")
        case .episode(let id):
            let episode = try await podcasts.episode(id, for: user.id)
            response = try await episodes.audio(of: episode, call.request, call.context)
            name = episode.title + "." + (DualSubsonicItems.suffix(of: episode.details.audioURL) ?? "mp3")
        case .channel, nil:
            throw SubsonicError.notFound("Song")
        }
        if download, response.status == .ok || response.status == .partialContent {
            response.headers[.contentDisposition] = ContentDisposition.attachment(named: String(name.prefix(200)))
        }
        return response
    }

    func cover(_ call: SubsonicCall, _ text: String) async throws -> Response {
        let user = try call.user
        let picture: String?
        switch DualSubsonicID(text) {
        case .book(let id):
            let book = try await service.book(id, for: user.id)
            guard book.coverFile != nil else { throw SubsonicError.notFound("Cover art") }
            return try await books.cover(of: book, call.request, call.context)
        case .episode(let id):
            let episode = try await podcasts.episode(id, for: user.id)
            let show = try await podcasts.store.podcast(episode.podcast)
            picture = episode.details.imageURL ?? show?.imageURL
        case .channel(let id):
            picture = try await podcasts.podcast(id, for: user.id).0.imageURL
        case nil:
            throw SubsonicError.notFound("Cover art")
        }
        guard let picture, let address = WebAddress(picture, limit: 2000) else { throw SubsonicError.notFound("Cover art") }
        return Response(status: .found, headers: [.location: address.url.absoluteString, .cacheControl: "private, max-age=86400"])
    }
}
