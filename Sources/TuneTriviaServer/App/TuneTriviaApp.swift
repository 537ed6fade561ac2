import Foundation
import Hummingbird
import JukePlatform
import LiveUpdates
import Logging
import ServiceLifecycle
import Storage

/// TuneTrivia on the platform: its service with its live hub, its routes and pages, and the
/// relay that carries its changes between servers.
public struct TuneTriviaApp: JukeApp {
    let platform: Platform
    let service: TuneTriviaService
    let presenters: PresenterService

    public init(platform: Platform) {
        self.platform = platform
        let service = TuneTriviaService(
            database: platform.database, library: platform.library, snapshot: platform.snapshot, knownTokens: platform.knownTokens,
            hub: TriviaHub(heartbeat: platform.configuration.liveHeartbeat, logger: platform.logger), clock: platform.clock,
            background: platform.background,
            openAI: platform.configuration.openAI, triviaModel: platform.configuration.groups[TuneTriviaSettings.self].triviaModel,
            http: platform.http,
            logger: platform.logger)
        self.service = service
        self.presenters = PresenterService(database: platform.database, games: service, clock: platform.clock)
    }

    /// Its tables, migrated before any app is built.
    public static let schema = Schema.tuneTrivia

    /// Its settings: the trivia model.
    public static var settings: [any SettingsGroup.Type] { [TuneTriviaSettings.self] }

    /// Its card, which its pages carry too (`HTML.page(app:)`).
    public var card: AppCard { Self.card }

    static let card = AppCard(
        slug: "tunetrivia", name: "TuneTrivia", icon: Icons.trivia, blurb: "Name That Tune for a room full of phones.",
        offlineNote: "You are offline. Games are played through the server: hosting and joining need the network.")

    public func register(on router: Router<JukeRequestContext>) throws {
        try TuneTriviaHandler(service: service, presenters: presenters, users: platform.users, clock: platform.clock).registerHandlers(on: router)
        let media = MediaRoutes<JukeRequestContext>(platform: platform)
        TriviaClipRoutes(service: service, library: platform.library, media: media).register(on: router)
        PresenterMediaRoutes(presenters: presenters, service: service, library: platform.library, media: media, blur: platform.coverBlur)
            .register(on: router)
        TriviaCoverRoutes(service: service, library: platform.library, blur: platform.coverBlur).register(on: router)
        TriviaEventRoutes(
            service: service, hub: service.hub, users: platform.users, clock: platform.clock, metrics: platform.metrics,
            pushPath: platform.configuration.pushPath
        )
        .register(on: router)
        TuneTriviaPageRoutes(service: service).register(on: router)
    }

    public var services: [any Service] {
        let service = self.service
        return [service.relay.listener(logger: platform.logger, resync: { await service.resync() }) { await service.remoteChange($0) }]
    }

    public var staticFiles: URL? { Bundle.module.resourceURL?.appendingPathComponent("static") }

    /// The live hub (tests watch it).
    var hub: TriviaHub { service.hub }
}
