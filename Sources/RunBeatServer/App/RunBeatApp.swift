import Foundation
import Hummingbird
import JukePlatform
import LiveUpdates
import ServiceLifecycle
import Storage

/// RunBeat on the platform: heart-rate zone training with spoken cues and music that follows
/// the intervals, at /runbeat.
public struct RunBeatApp: JukeApp {
    let platform: Platform
    let service: RunBeatService
    let store: RunBeatStore
    let live: LiveTraining
    let relay: Relay
    let spotify: RunBeatSpotify?

    public static let relayChannel = "juke_runbeat"

    public init(platform: Platform) {
        self.platform = platform
        let store = RunBeatStore(database: platform.database)
        self.store = store
        let service = RunBeatService(
            store: store, library: platform.library, snapshot: platform.snapshot, reading: platform.reading, clock: platform.clock, logger: platform.logger)
        self.service = service
        self.relay = Relay(channel: Self.relayChannel, database: platform.database)
        let spotify = platform.configuration.groups[RunBeatSettings.self].spotify.map { RunBeatSpotify(settings: $0, platform: platform, service: service) }
        self.spotify = spotify
        self.live = LiveTraining(
            service: service, store: store, relay: relay, clock: platform.clock, background: platform.background, logger: platform.logger,
            spotify: spotify?.playback)
    }

    /// Its tables, migrated before any app is built.
    public static let schema = Schema.runBeat

    public static var settings: [any SettingsGroup.Type] { [RunBeatSettings.self] }

    /// Its card, which its pages carry too (`HTML.page(app:)`).
    public var card: AppCard { Self.card }

    static let card = AppCard(
        slug: "runbeat", name: "RunBeat", icon: Icons.heart, blurb: "Heart-rate zone training with music.",
        offlineNote: "You are offline. A workout keeps recording on this device and uploads when the network is back; spoken cues pause.",
        // A workout's samples not yet sent.
        personalKeyPrefixes: ["runbeat-backlog"])

    public func register(on router: Router<JukeRequestContext>) throws {
        try RunBeatHandler(service: service, live: live, store: store, spotify: spotify).registerHandlers(on: router)
        SpotifyCallbackRoute(spotify: spotify).register(on: router)
        LiveRoutes(service: service, live: live, users: platform.users, clock: platform.clock).register(on: router)
        WorkoutExportRoutes(service: service).register(on: router)
        RunBeatPageRoutes().register(on: router)
    }

    /// The live samples written in batches, coaches' screens refreshed, other servers heard;
    /// Spotify's playback and token job when Spotify is set up.
    public var services: [any Service] {
        var list: [any Service] = [LiveTrainingService(live: live, relay: relay, logger: platform.logger)]
        if let spotify { list.append(SpotifyJobsService(playback: spotify.playback, refresher: spotify.refresher, clock: platform.clock)) }
        return list
    }

    /// Workout files (FIT, TCX, GPX) for import and replay: up to 64 MB; a backlog of samples
    /// sent after a dropped connection (5,000 a request): half a megabyte.
    public var largerBodyPaths: [String: Int] {
        ["/api/v1/runbeat/workouts/files": 1000, "/api/v1/runbeat/recordings": 1000, "/api/v1/runbeat/workouts/": 8]
    }

    public var staticFiles: URL? { Bundle.module.resourceURL?.appendingPathComponent("static") }
}
