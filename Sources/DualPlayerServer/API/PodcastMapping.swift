import DualPlayer
import DualPlayerAPI
import Foundation
import JukeCore

/// Podcasts as the contract's JSON: only shapes, no rules.
enum PodcastMapping {
    typealias S = Components.Schemas

    static func settings(_ s: Subscription) -> S.DualPodcastSettings {
        S.DualPodcastSettings(speed: s.speed, skipSilence: s.skipSilence)
    }

    static func podcast(_ p: Podcast, settings: Subscription, episodes: Int, unplayed: Int) -> S.DualPodcast {
        S.DualPodcast(
            id: p.id.description, feedUrl: p.feedURL, title: p.title, author: p.author, summary: p.summary, imageUrl: webAddress(p.imageURL),
            link: webAddress(p.link),
            isDemo: p.feedURL == Podcast.demoFeed, episodes: episodes, unplayed: unplayed, lastFetch: p.lastFetch, nextFetch: p.schedule.nextFetch,
            failures: p.schedule.failures, lastError: p.schedule.lastError, gone: p.schedule.gone, settings: Self.settings(settings))
    }

    static func episode(_ e: Episode, played: Bool, position: Double?) -> S.DualEpisode {
        S.DualEpisode(
            id: e.id.description, podcastId: e.podcast.description, title: e.title, published: e.published, duration: e.details.duration,
            summary: e.details.summary, link: webAddress(e.details.link), imageUrl: webAddress(e.details.imageURL), episode: e.details.episode,
            season: e.details.season, audioUrl: "/api/v1/dual/episodes/\(e.id.description)/audio", audioType: e.details.audioType,
            audioLength: e.details.audioLength, played: played, position: position,
            chapters: e.details.chaptersURL != nil || !e.details.inlineChapters.isEmpty, transcript: e.details.transcript != nil,
            download: e.download.map {
                .init(status: .init(rawValue: $0.status.rawValue) ?? .failed, bytes: $0.bytes, total: $0.total, failure: $0.failure)
            })
    }

    /// Only http(s) addresses reach a page (an image or a link a feed gave).
    static func webAddress(_ text: String?) -> String? {
        text.flatMap { WebAddress($0) }?.text
    }
}
