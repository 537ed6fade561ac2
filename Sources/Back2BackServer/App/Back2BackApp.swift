import Foundation
import Hummingbird
import JukePlatform
import LiveUpdates
import Logging
import ServiceLifecycle
import Storage

/// Back2Back on the platform: its service with the DJ (the AI DJ when an AI endpoint is set,
/// on the settings page or by flags or the environment, Juke's own DJ otherwise; decided at
/// each request), its routes and pages, the relay between servers and its background work.
public struct Back2BackApp: JukeApp {
    let platform: Platform
    let service: Back2BackService
    let djSelector: DJSelector

    /// `timers`: the clock Back2Back's turn and presence timers sleep on (tests pass a manual one).
    public init(platform: Platform, timers: any LiveClock = SystemLiveClock()) {
        self.platform = platform
        let settings = platform.configuration.groups[Back2BackSettings.self]
        let catalog = settings.catalog?.client(http: platform.http, logger: platform.logger)
        if let catalog { platform.logger.info("back2back: AI picks are looked up in an outside catalog", metadata: ["catalog": "\(catalog.name)"]) }
        self.djSelector = DJSelector(
            environment: platform.configuration.openAI, store: Back2BackStore(database: platform.database), catalog: catalog,
            http: platform.http, logger: platform.logger)
        self.service = Back2BackService(
            database: platform.database, library: platform.library, snapshot: platform.snapshot, users: platform.users, clock: platform.clock, dj: djSelector,
            catalog: catalog, heartbeat: platform.configuration.liveHeartbeat, timers: timers,
            background: platform.background, logger: platform.logger)
    }

    /// Its tables, migrated before any app is built.
    public static let schema = Schema.back2back

    /// Its settings: the outside catalog.
    public static var settings: [any SettingsGroup.Type] { [Back2BackSettings.self] }

    /// Its card, which its pages carry too (`HTML.page(app:)`).
    public var card: AppCard { Self.card }

    static let card = AppCard(
        slug: "back2back", name: "Back2Back", icon: Icons.headphones, blurb: "Take turns picking songs with a DJ.",
        offlineNote: "You are offline. Back2Back picks songs with the server: sessions need the network.")

    public func register(on router: Router<JukeRequestContext>) throws {
        let handler = Back2BackHandler(back2back: service, djSelector: djSelector, clock: platform.clock)
        try handler.registerHandlers(on: router)
        Back2BackRoutes(handler: handler, links: platform.mediaLinks).register(on: router)
        Back2BackPageRoutes(service: service).register(on: router)
    }

    public var services: [any Service] {
        let service = self.service
        return [
            service.relay.listener(logger: platform.logger, resync: { await service.resync() }) { await service.remoteChange($0) },
            Back2BackWorkService(service: service),
        ]
    }

    public var staticFiles: URL? { Bundle.module.resourceURL?.appendingPathComponent("static") }

    /// Personas carry long texts (a style guide of 20,000 characters, which JSON escaping can
    /// make six bytes each): their routes take four times the limit.
    public var largerBodyPaths: [String: Int] { ["/api/v1/back2back/personas": 4] }

    /// The service (tests wait for its background work).
    var back2back: Back2BackService { service }
}
