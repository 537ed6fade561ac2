import Hummingbird
import Storage

/// The Subsonic API as this server offers it: the platform's endpoints and extensions, then
/// those the apps add.
public enum SubsonicAPI {
    /// What the platform implements of OpenSubsonic's extensions (apps add theirs).
    static let platformExtensions: [SubsonicExtension] = [
        SubsonicExtension("apiKeyAuthentication"),
        SubsonicExtension("formPost"),
        SubsonicExtension("transcodeOffset"),
        SubsonicExtension("indexBasedQueue"),
        SubsonicExtension("topSongsByArtistId"),
        SubsonicExtension("songLyrics"),
    ]

    static func register(on router: Router<JukeRequestContext>, platform: Platform, apps: [any JukeApp]) {
        let extensions = platformExtensions + apps.flatMap(\.subsonicExtensions)
        let annotations = SubsonicAnnotationStore(database: platform.database)
        let endpoints =
            SystemEndpoints.all(platform: platform, extensions: extensions)
            + BrowsingEndpoints.all(platform: platform)
            + ListEndpoints.all(platform: platform, annotations: annotations)
            + SearchEndpoints.all(platform: platform)
            + MediaEndpoints.all(platform: platform, appMedia: apps.flatMap(\.subsonicMedia))
            + AnnotationEndpoints.all(platform: platform, store: annotations, nowPlaying: SubsonicNowPlaying())
            + DiscoveryEndpoints.all(platform: platform)
            + LyricsEndpoints.all(platform: platform)
            + PlaylistEndpoints.all(platform: platform, store: SubsonicPlaylistStore(database: platform.database))
            + PlayQueueEndpoints.all(platform: platform, store: SubsonicPlayQueueStore(database: platform.database))
            + apps.flatMap(\.subsonicEndpoints)
        SubsonicRoutes(
            access: platform.subsonicAccess, endpoints: endpoints, annotations: SubsonicAnnotations(store: annotations), logger: platform.logger,
            bodyLimit: platform.configuration.maxBodySize
        )
        .register(on: router)
    }
}
