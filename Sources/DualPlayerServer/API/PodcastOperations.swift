import DualPlayer
import DualPlayerAPI
import Feeds
import Foundation
import JukeCore
import JukePlatform

/// The podcast operations of Dual Player's contract: read the input, call the service, map.
extension DualPlayerHandler {
    func listDualPodcasts(_ input: Operations.ListDualPodcasts.Input) async throws -> Operations.ListDualPodcasts.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let items = try await podcasts.subscriptions(of: user.id).map {
                PodcastMapping.podcast($0.podcast, settings: $0.settings, episodes: $0.episodes, unplayed: $0.unplayed)
            }
            return .ok(.init(body: .json(.init(items: items))))
        }
    }

    func subscribeDualPodcast(_ input: Operations.SubscribeDualPodcast.Input) async throws -> Operations.SubscribeDualPodcast.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            guard body.url.unicodeScalars.count <= 2000 else { throw RuleRefusal.invalid("url", "a feed's address is at most 2000 characters") }
            let (podcast, created) = try await podcasts.subscribe(user.id, to: body.url)
            let shown = try await shownPodcast(podcast.id, for: user.id)
            return created ? .created(.init(body: .json(shown))) : .ok(.init(body: .json(shown)))
        }
    }

    func searchDualPodcasts(_ input: Operations.SearchDualPodcasts.Input) async throws -> Operations.SearchDualPodcasts.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            let page = try Paging(limit: input.query.limit, offset: nil, defaultLimit: 25, maxLimit: 100)
            guard input.query.q.unicodeScalars.count <= 200 else { throw RuleRefusal.invalid("q", "at most 200 characters") }
            let found = try await podcasts.search(input.query.q, limit: page.limit)
            return .ok(
                .init(
                    body: .json(
                        .init(
                            items: found.map {
                                .init(
                                    id: $0.id, title: $0.title, author: $0.author, feedUrl: $0.feedURL, artworkUrl: $0.artworkURL,
                                    episodeCount: $0.episodeCount,
                                    genre: $0.genre)
                            }))))
        }
    }

    func getDualPodcast(_ input: Operations.GetDualPodcast.Input) async throws -> Operations.GetDualPodcast.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            return .ok(.init(body: .json(try await shownPodcast(try parseID(input.path.podcastId, field: "podcast_id"), for: user.id))))
        }
    }

    func unsubscribeDualPodcast(_ input: Operations.UnsubscribeDualPodcast.Input) async throws -> Operations.UnsubscribeDualPodcast.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await podcasts.unsubscribe(user.id, from: try parseID(input.path.podcastId, field: "podcast_id"))
            return .noContent(.init())
        }
    }

    func saveDualPodcastSettings(_ input: Operations.SaveDualPodcastSettings.Input) async throws -> Operations.SaveDualPodcastSettings.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let settings = try Subscription.validated(speed: body.speed, skipSilence: body.skipSilence)
            let kept = try await podcasts.saveSettings(settings, of: user.id, for: try parseID(input.path.podcastId, field: "podcast_id"))
            return .ok(.init(body: .json(PodcastMapping.settings(kept))))
        }
    }

    func refreshDualPodcast(_ input: Operations.RefreshDualPodcast.Input) async throws -> Operations.RefreshDualPodcast.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let id: PodcastID = try parseID(input.path.podcastId, field: "podcast_id")
            _ = try await podcasts.refreshNow(id, for: user.id)
            return .ok(.init(body: .json(try await shownPodcast(id, for: user.id))))
        }
    }

    func listDualEpisodes(_ input: Operations.ListDualEpisodes.Input) async throws -> Operations.ListDualEpisodes.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let paging = try Paging(limit: input.query.limit, offset: input.query.offset, maxLimit: 200, maxOffset: 1_000_000)
            let page = try await podcasts.episodes(
                of: try parseID(input.path.podcastId, field: "podcast_id"), for: user.id, limit: paging.limit, offset: paging.offset)
            return .ok(
                .init(
                    body: .json(
                        .init(items: page.items.map { PodcastMapping.episode($0.episode, played: $0.played, position: $0.position) }, total: page.total))))
        }
    }

    func markDualEpisodePlayed(_ input: Operations.MarkDualEpisodePlayed.Input) async throws -> Operations.MarkDualEpisodePlayed.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let kept = try await podcasts.setPlayed(
                body.played, episode: try parseID(input.path.episodeId, field: "episode_id"), by: user.id, updatedAt: body.updatedAt)
            return .ok(.init(body: .json(.init(played: kept, updatedAt: body.updatedAt))))
        }
    }

    func getDualEpisodeChapters(_ input: Operations.GetDualEpisodeChapters.Input) async throws -> Operations.GetDualEpisodeChapters.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let episode = try await podcasts.episode(try parseID(input.path.episodeId, field: "episode_id"), for: user.id)
            let found: (source: String, chapters: [Book.Chapter])
            do {
                found = try await episodeMedia.chapters(of: episode)
            } catch {
                throw APIError(
                    status: .badGateway, code: "podcast_host_unavailable", message: "The episode's chapters could not be read: \(FeedFetch.words(error)).")
            }
            return .ok(
                .init(
                    body: .json(
                        .init(
                            source: .init(rawValue: found.source) ?? .none,
                            chapters: found.chapters.map { .init(title: $0.title, start: $0.start, end: $0.end) }))))
        }
    }

    func getDualEpisodeTranscript(_ input: Operations.GetDualEpisodeTranscript.Input) async throws -> Operations.GetDualEpisodeTranscript.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let episode = try await podcasts.episode(try parseID(input.path.episodeId, field: "episode_id"), for: user.id)
            let transcript: Transcript?
            do {
                transcript = try await episodeMedia.transcript(of: episode)
            } catch {
                throw APIError(
                    status: .badGateway, code: "podcast_host_unavailable", message: "The episode's transcript could not be read: \(FeedFetch.words(error)).")
            }
            guard let transcript else { throw RuleRefusal.notFound("This episode has no timed transcript.") }
            return .ok(.init(body: .json(.init(cues: transcript.cues.map { .init(start: $0.start, end: $0.end, speaker: $0.speaker, text: $0.text) }))))
        }
    }

    /// A show as its subscriber sees it, counts included.
    func shownPodcast(_ id: PodcastID, for user: UserID) async throws -> Components.Schemas.DualPodcast {
        guard let found = try await podcasts.subscriptions(of: user).first(where: { $0.podcast.id == id }) else {
            throw RuleRefusal.notFound("You do not subscribe to that show.")
        }
        return PodcastMapping.podcast(found.podcast, settings: found.settings, episodes: found.episodes, unplayed: found.unplayed)
    }
}

extension DualPlayerHandler {
    func importDualPodcasts(_ input: Operations.ImportDualPodcasts.Input) async throws -> Operations.ImportDualPodcasts.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .binary(let body) = input.body else { throw APIError.badRequest("Send the OPML file's bytes (application/octet-stream).") }
            let bytes = try await [UInt8](collecting: body, upTo: 16 * 1024 * 1024)
            let done = try await podcasts.importOPML(bytes, for: user.id)
            if done.added > 0 {
                // New shows are read now rather than at the refresher's next minute.
                podcasts.refreshDueSoon(limit: 50)
            }
            return .ok(.init(body: .json(.init(added: done.added, already: done.already, skipped: done.skipped))))
        }
    }
}

extension DualPlayerHandler {
    func downloadDualEpisode(_ input: Operations.DownloadDualEpisode.Input) async throws -> Operations.DownloadDualEpisode.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let id: EpisodeID = try parseID(input.path.episodeId, field: "episode_id")
            let (episode, started) = try await podcasts.download(id, for: user.id)
            let mine = try await podcasts.store.episode(id, for: user.id)
            let body = PodcastMapping.episode(episode, played: mine?.played ?? false, position: mine?.position)
            return started ? .accepted(.init(body: .json(body))) : .ok(.init(body: .json(body)))
        }
    }

    func removeDualEpisodeDownload(_ input: Operations.RemoveDualEpisodeDownload.Input) async throws -> Operations.RemoveDualEpisodeDownload.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await podcasts.removeDownload(try parseID(input.path.episodeId, field: "episode_id"), for: user.id)
            return .noContent(.init())
        }
    }
}
