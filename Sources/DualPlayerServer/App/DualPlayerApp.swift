import Foundation
import Hummingbird
import JukePlatform
import Providers
import ServiceLifecycle
import Storage

/// Dual Player on the platform: music and speech at the same time, at /dual.
public struct DualPlayerApp: JukeApp {
    let platform: Platform
    let service: DualPlayerService
    let radio: RadioService
    let libriVox: LibriVoxService
    let songs: SongService
    let podcasts: PodcastService
    let episodeMedia: EpisodeMedia
    let articles: ArticleService
    let fetcher: WebFetcher
    /// Signed relay addresses of favourite stations, for Subsonic players.
    let radioLinks: RadioLinks

    public init(platform: Platform) {
        self.platform = platform
        let settings = platform.configuration.groups[DualPlayerSettings.self]
        self.service = DualPlayerService(
            database: platform.database, library: platform.library, reading: platform.reading, clock: platform.clock, logger: platform.logger,
            files: platform.files, scratch: platform.scratchFolder, maxUploadSize: platform.configuration.maxUploadSize)
        // Radio Browser's own discovery and mirrors, or the list the configuration names (a
        // private mirror, or a test's fake).
        let directory =
            settings.radioBrowserDiscovery.map { RadioBrowser(http: platform.http, discoveryURL: $0, fallbackServers: [], scheme: $0.scheme ?? "https") }
            ?? RadioBrowser(http: platform.http)
        let relays = RadioRelays(
            connector: StreamConnector(allowPrivateNetworks: settings.radioAllowPrivateStreams), logger: platform.logger)
        let books = BookStore(database: platform.database)
        self.songs = SongService(
            songs: SongStore(database: platform.database),
            uploads: SongUploads(scratch: platform.scratchFolder, files: platform.files, limit: platform.configuration.maxUploadSize),
            reading: platform.reading, clock: platform.clock, logger: platform.logger, canTranscode: platform.transcoder != nil, tools: platform.tools)
        // Feeds, episodes, articles and LibriVox's sections and covers are fetched under the
        // relay's address policy.
        let fetcher = WebFetcher(http: platform.http, allowPrivateNetworks: settings.webAllowPrivateNetworks)
        self.fetcher = fetcher
        let libriVoxBase = settings.libriVoxURL ?? LibriVox.defaultBase ?? URL(fileURLWithPath: "/")
        self.libriVox = LibriVoxService(
            client: LibriVox(http: platform.http, baseURL: libriVoxBase),
            downloads: LibriVoxDownloads(
                books: books, files: platform.files, scratch: platform.scratchFolder, fetcher: fetcher,
                background: platform.background, logger: platform.logger),
            books: books, clock: platform.clock, logger: platform.logger)
        let demoFolder = DemoPodcastService.folder(dataDirectory: platform.configuration.dataDirectory)
        let episodeMedia = EpisodeMedia(fetcher: fetcher, demoFolder: demoFolder, files: platform.files, scratch: platform.scratchFolder)
        let podcastStore = PodcastStore(database: platform.database)
        self.podcasts = PodcastService(
            store: podcastStore,
            fetch: FeedFetch(
                fetcher: fetcher,
                demoFeedPath: {
                    let path = demoFolder + "/feed.xml"
                    return FileManager.default.fileExists(atPath: path) ? path : nil
                }),
            downloads: EpisodeDownloads(
                store: podcastStore, fetcher: fetcher, media: episodeMedia, files: platform.files, scratch: platform.scratchFolder,
                limit: settings.podcastStorageLimit, clock: platform.clock, background: platform.background, logger: platform.logger),
            directory: settings.podcastSearchURL.map { ITunesSearch(http: platform.http, baseURL: $0) }, reading: platform.reading, clock: platform.clock,
            logger: platform.logger,
            refreshInterval: settings.podcastRefreshInterval, history: PodcastSyncStore(database: platform.database))
        self.episodeMedia = episodeMedia
        self.articles = ArticleService(
            store: ArticleStore(database: platform.database), fetcher: fetcher, reading: platform.reading,
            files: platform.files, scratch: platform.scratchFolder,
            clock: platform.clock, background: platform.background, tools: platform.tools, logger: platform.logger)
        self.radioLinks = RadioLinks(secrets: SecretStore(database: platform.database))
        self.radio = RadioService(
            directory: directory, favorites: RadioFavoritesStore(database: platform.database), relays: relays, clock: platform.clock,
            logger: platform.logger)
    }

    /// Its tables, migrated before any app is built.
    public static let schema = Schema.dualPlayer

    public static var settings: [any SettingsGroup.Type] { [DualPlayerSettings.self] }

    /// Its card, which its pages carry too (`HTML.page(app:)`).
    public var card: AppCard { Self.card }

    static let card = AppCard(
        slug: "dual", name: "Dual Player", icon: Icons.microphone, blurb: "Music and audiobooks at the same time.",
        offlineNote: "You are offline. What you saved on this device plays; browsing, radio and new downloads need the network.",
        // What was saved and queued here, the players' state kept for offline.
        personalKeyPrefixes: ["juke_dual_"])

    public func register(on router: Router<JukeRequestContext>) throws {
        try DualPlayerHandler(
            service: service, radio: radio, libriVox: libriVox, songs: songs, podcasts: podcasts, episodeMedia: episodeMedia, articles: articles
        )
        .registerHandlers(on: router)
        ArticleAudioRoutes(articles: articles, media: MediaRoutes(platform: platform)).register(on: router)
        EpisodeAudioRoutes(
            podcasts: podcasts, media: MediaRoutes(platform: platform), episodeMedia: episodeMedia, proxy: EpisodeProxy(fetcher: fetcher)
        ).register(on: router)
        SongMediaRoutes(songs: songs, media: MediaRoutes(platform: platform)).register(on: router)
        RadioListenRoutes(radio: radio, links: radioLinks).register(on: router)
        BookAudioRoutes(service: service, media: MediaRoutes(platform: platform), files: platform.files, ownFiles: platform.ownFiles)
            .register(on: router)
        DualPlayerPageRoutes().register(on: router)
        GpodderRoutes(
            sync: PodcastSync(
                store: PodcastSyncStore(database: platform.database), podcasts: podcasts, positions: DualPlayerStore(database: platform.database),
                clock: platform.clock, logger: platform.logger),
            access: platform.subsonicAccess, users: platform.users, logger: platform.logger
        ).register(on: router)
    }

    /// The spoken demo audiobook and demo show, made on the first start; the LibriVox
    /// downloads a restart interrupted; the podcast feeds' refreshes; the radio relays' close.
    public var services: [any Service] {
        [
            DemoBookService(platform: platform, books: service.books), DemoPodcastService(platform: platform), LibriVoxResumeService(libriVox: libriVox),
            PodcastRefresher(podcasts: podcasts, every: .seconds(60)), PodcastDownloadsResume(downloads: podcasts.downloads),
            RadioRelayService(relays: radio.relays),
        ]
    }

    /// Audiobook and song uploads stream to disk.
    public var streamedUploadPaths: [String] { ["/api/v1/dual/books", "/api/v1/dual/songs"] }

    /// An imported subscription list (OPML) may hold hundreds of shows,
    /// and a saved web page or an ePub is often a megabyte or more (up to 50 MB).
    /// Podcast sync's uploads (gpodder.net's API) take up to 1 MB: a first sync's actions.
    public var largerBodyPaths: [String: Int] {
        ["/api/v1/dual/podcasts/opml": 16, "/api/v1/dual/articles/files": 800, "/api/2/": 16, "/subscriptions/": 16]
    }

    public var staticFiles: URL? { Bundle.module.resourceURL?.appendingPathComponent("static") }
}
