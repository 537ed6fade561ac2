import DualPlayer
import JukePlatform

/// Subsonic's podcast methods over Dual Player's podcasts. A channel is a show the caller
/// subscribes to (shows are shared by their subscribers, so deleting a channel unsubscribes
/// the caller alone); an episode's status is its copy on the server; every episode streams,
/// downloaded or not, through the same passing-on the page uses.
enum PodcastEndpoints {
    /// The most episodes listed for one channel (a feed keeps its latest hundred or so;
    /// what Juke saw before is kept, so an old show can have more).
    static let maxEpisodes = 2000
    static let maxNewest = 500

    static func all(_ podcasts: PodcastService) -> [SubsonicEndpoint] {
        [
            SubsonicEndpoint("getPodcasts") { call in
                let user = try call.user
                let withEpisodes = call.parameters.bool("includeEpisodes") ?? true
                var shows = try await podcasts.subscriptions(of: user.id).map(\.podcast)
                if call.parameters.has("id") {
                    let id = try DualSubsonicID.channel(call.parameters)
                    shows = shows.filter { $0.id == id }
                    guard !shows.isEmpty else { throw SubsonicError.notFound("Podcast channel") }
                }
                var channels: [SubsonicElement] = []
                for show in shows {
                    var episodes: [Episode]?
                    if withEpisodes { episodes = try await podcasts.store.episodes(of: show.id, for: user.id, limit: maxEpisodes, offset: 0).map(\.episode) }
                    channels.append(DualSubsonicItems.channel(show, episodes: episodes))
                }
                var answer = SubsonicElement()
                answer.add("channel", list: channels)
                return .element("podcasts", answer)
            },
            SubsonicEndpoint("getNewestPodcasts") { call in
                let user = try call.user
                let count = try call.parameters.int("count", default: 20, in: 0...maxNewest) ?? 20
                var episodes: [Episode] = []
                if count > 0 { episodes = try await podcasts.newestEpisodes(for: user.id, limit: count) }
                var shows: [PodcastID: Podcast] = [:]
                var list: [SubsonicElement] = []
                for episode in episodes {
                    if shows[episode.podcast] == nil { shows[episode.podcast] = try await podcasts.store.podcast(episode.podcast) }
                    list.append(DualSubsonicItems.episode(episode, show: shows[episode.podcast]))
                }
                var answer = SubsonicElement()
                answer.add("episode", list: list)
                return .element("newestPodcasts", answer)
            },
            SubsonicEndpoint("getPodcastEpisode") { call in
                let user = try call.user
                let episode = try await podcasts.episode(try DualSubsonicID.episode(call.parameters), for: user.id)
                return .element("podcastEpisode", DualSubsonicItems.episode(episode, show: try await podcasts.store.podcast(episode.podcast)))
            },
            SubsonicEndpoint("createPodcastChannel") { call in
                // The feed reader's own subscribing: a wrong address is said at once.
                _ = try await podcasts.subscribe(try call.user.id, to: try call.parameters.required("url"))
                return .empty
            },
            SubsonicEndpoint("refreshPodcasts") { call in
                try await podcasts.refreshAll(of: try call.user.id)
                return .empty
            },
            SubsonicEndpoint("downloadPodcastEpisode") { call in
                _ = try await podcasts.download(try DualSubsonicID.episode(call.parameters), for: try call.user.id)
                return .empty
            },
            SubsonicEndpoint("deletePodcastEpisode") { call in
                // The server's copy goes; the episode stays in its show and streams from its host.
                try await podcasts.removeDownload(try DualSubsonicID.episode(call.parameters), for: try call.user.id)
                return .empty
            },
            SubsonicEndpoint("deletePodcastChannel") { call in
                try await podcasts.unsubscribe(try call.user.id, from: try DualSubsonicID.channel(call.parameters))
                return .empty
            },
        ]
    }
}
