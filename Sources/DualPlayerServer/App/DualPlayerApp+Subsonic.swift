import JukePlatform

/// Dual Player's part of the Subsonic API: bookmarks (its places in books and episodes),
/// podcasts and internet radio (its favourite stations), and the audio and covers of the
/// books and episodes those hand a player.
extension DualPlayerApp {
    public var subsonicEndpoints: [SubsonicEndpoint] {
        BookmarkEndpoints.all(Bookmarks(service: service, podcasts: podcasts, notes: BookmarkNoteStore(database: platform.database)))
            + PodcastEndpoints.all(podcasts) + RadioEndpoints.all(radio, links: radioLinks)
    }

    public var subsonicExtensions: [SubsonicExtension] { [SubsonicExtension("getPodcastEpisode")] }

    public var subsonicMedia: [SubsonicMedia] {
        [
            DualSubsonicMedia(
                service: service, podcasts: podcasts,
                books: BookAudioRoutes(service: service, media: MediaRoutes(platform: platform), files: platform.files, ownFiles: platform.ownFiles),
                episodes: EpisodeAudioRoutes(
                    podcasts: podcasts, media: MediaRoutes(platform: platform), episodeMedia: episodeMedia, proxy: EpisodeProxy(fetcher: fetcher))
            ).media
        ]
    }
}
