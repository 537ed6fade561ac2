import Foundation
import Hummingbird
import HummingbirdWebSocket
import JukeAPI
import JukeCore
import Logging
import OpenAPIHummingbird
import Storage

/// Builds the Juke application: opens and migrates the database, wires the services and
/// the router. Tests build the same application with an in-memory database.
public func buildApplication(
    configuration: ServerConfiguration, clock: WallClock = .system, logger: Logger
) async throws -> some ApplicationProtocol {
    let services = try await makeServices(configuration: configuration, clock: clock, logger: logger)
    return try buildApplication(services: services)
}

/// The application around services that are already open (tests pass their own database).
public func buildApplication(services: AppServices) throws -> some ApplicationProtocol {
    let configuration = services.configuration
    let router = try buildRouter(services: services)
    var app = Application(
        router: router,
        // The same router answers WebSocket upgrades (TuneTrivia's live games).
        server: .http1WebSocketUpgrade(webSocketRouter: router),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Juke"),
        logger: services.logger
    )
    app.addServices(
        DatabaseService(database: services.database),
        LibraryUpkeepService(services: services),
        HousekeepingService(users: services.users, clock: services.clock, window: services.auth.throttle.window),
        NotificationListener(channel: NotificationListener.tuneTrivia, database: services.database, logger: services.logger) {
            await services.tuneTrivia.remoteChange($0)
        },
        NotificationListener(channel: NotificationListener.back2back, database: services.database, logger: services.logger) {
            await services.back2back.remoteChange($0)
        },
        Back2BackWorkService(service: services.back2back)
    )
    return app
}

/// Opens the database named by the configuration and brings its schema up to date.
public func makeServices(configuration: ServerConfiguration, clock: WallClock = .system, logger: Logger) async throws -> AppServices {
    try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
    let database = try DatabaseFactory.open(configuration.database, logger: logger)
    try await Migrator.migrate(database, logger: logger)
    return AppServices(configuration: configuration, database: database, clock: clock, logger: logger)
}

public func buildRouter(services: AppServices) throws -> Router<JukeRequestContext> {
    let router = Router(context: JukeRequestContext.self)
    router.add(middleware: LogRequestsMiddleware(.debug))
    router.add(middleware: PrometheusMiddleware(registry: services.metrics))
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: BodyLimitMiddleware(limit: services.configuration.maxBodySize))
    router.add(middleware: AuthMiddleware(users: services.users, known: services.knownTokens, clock: services.clock))
    router.add(middleware: SessionCookieMiddleware())

    let handler = JukeAPIHandler(services: services)
    try handler.registerHandlers(on: router)
    Back2BackRoutes(handler: handler).register(on: router)
    let media = MediaRoutes<JukeRequestContext>(library: services.library)
    media.register(on: router)
    TriviaClipRoutes(service: services.tuneTrivia, library: services.library, media: media).register(on: router)
    TriviaEventRoutes(
        service: services.tuneTrivia, hub: services.tuneTrivia.hub, users: services.users, clock: services.clock, metrics: services.metrics
    ).register(on: router)
    SystemRoutes<JukeRequestContext>(services: services).register(on: router)
    WebRoutes<JukeRequestContext>(services: services).register(on: router)
    return router
}
