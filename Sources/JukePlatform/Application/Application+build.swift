import Foundation
import Hummingbird
import HummingbirdWebSocket
import JukeAPI
import JukeCore
import Logging
import OpenAPIHummingbird
import Storage

/// The application around a platform and its apps: the platform's services and routes,
/// then each app's. Tests build the same application on a throwaway database.
public func buildApplication(platform: Platform, apps: [any JukeApp], comingSoon: [AppCard] = []) throws -> some ApplicationProtocol {
    let configuration = platform.configuration
    let router = try buildRouter(platform: platform, apps: apps, comingSoon: comingSoon)
    var app = Application(
        router: router,
        // The same router answers WebSocket upgrades (live games).
        server: .juke(webSocketRouter: router, idleTimeout: configuration.idleTimeout, headTimeout: configuration.headerTimeout),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Juke"),
        logger: platform.logger
    )
    app.addServices(
        // First, so that it is shut down last: every service may call out while it stops.
        OutboundHTTPService(http: platform.http),
        DatabaseService(database: platform.database),
        // Closed after the work that stores files has ended (shutdown goes in reverse order).
        MediaStoreService(store: platform.files, logger: platform.logger),
        // After the database, so shutdown (in reverse order) ends the work before closing it,
        // and before every other service, so theirs is still accepted while they stop.
        platform.background,
        LibraryUpkeepService(platform: platform),
        HousekeepingService(users: platform.users, clock: platform.clock, window: platform.auth.throttle.window)
    )
    for juke in apps { app.addServices(juke.services) }
    return app
}

/// Opens the database named by the configuration and brings the platform's and the apps'
/// tables up to date.
public func openPlatform(configuration: ServerConfiguration, schemas: [Schema], clock: WallClock = .system, logger: Logger) async throws
    -> Platform
{
    try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
    let leftovers = ScratchFolder.clearLeftovers(in: ScratchFolder.path(dataDirectory: configuration.dataDirectory))
    if leftovers > 0 { logger.info("removed files a stopped server left half-received", metadata: ["files": "\(leftovers)"]) }
    let database = try DatabaseFactory.open(configuration.database, connectionWait: configuration.databaseWait, logger: logger)
    do {
        try await Migrator.migrate(database, schemas: [.platform] + schemas, logger: logger)
    } catch {
        // Closed before it goes: an open connection let go of is a leak (and SQLiteNIO's
        // assertion in a debug build), where a refused migration should only say why.
        await database.shutdown()
        throw error
    }
    return Platform(configuration: configuration, database: database, clock: clock, logger: logger)
}

public func buildRouter(platform: Platform, apps: [any JukeApp], comingSoon: [AppCard] = []) throws -> Router<JukeRequestContext> {
    // HEAD is answered wherever GET is (a link checker, `curl -I`), with GET's headers.
    let router = Router(context: JukeRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: ClientMiddleware(origin: platform.configuration.clientOrigin, allowedOrigins: platform.configuration.allowedOrigins))
    // Juke's own request log: Subsonic players put passwords, tokens and keys in the
    // query, which Hummingbird's would write down.
    router.add(middleware: RedactedRequestLog())
    router.add(middleware: PrometheusMiddleware(registry: platform.metrics))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: EventStreamMiddleware())
    router.add(middleware: ErrorMiddleware())
    let contract = String(decoding: try OpenAPISpec.yaml(), as: UTF8.self)
    router.add(middleware: MethodNotAllowedMiddleware(allowed: AllowedMethods(contract: contract)))
    let larger = apps.reduce(into: [String: Int]()) { $0.merge($1.largerBodyPaths) { max($0, $1) } }
    router.add(
        middleware: BodyLimitMiddleware(
            limit: platform.configuration.maxBodySize, uploadPaths: Set(apps.flatMap(\.streamedUploadPaths)),
            uploadLimit: platform.configuration.maxUploadSize, larger: larger))
    router.add(
        middleware: TextInputMiddleware(
            limit: platform.configuration.maxBodySize, larger: larger, fields: TextInputMiddleware<JukeRequestContext>.fieldNames(contract: contract)))
    router.add(
        middleware: AuthMiddleware(
            users: platform.users, known: platform.knownTokens, clock: platform.clock, batchChecked: apps.flatMap(\.batchCheckedTokenRoutes)))
    router.add(middleware: SessionCookieMiddleware())

    try JukeAPIHandler(platform: platform).registerHandlers(on: router)
    MediaRoutes<JukeRequestContext>(platform: platform).register(on: router)
    SystemRoutes<JukeRequestContext>(platform: platform).register(on: router)
    SubsonicAPI.register(on: router, platform: platform, apps: apps)
    WebRoutes<JukeRequestContext>(launcher: Launcher(apps: apps.map(\.card), comingSoon: comingSoon)).register(on: router)
    var folders: [(root: URL, prefix: String)] = WebRoutes<JukeRequestContext>.staticRoot.map { [($0, "/static/")] } ?? []
    for juke in apps {
        try juke.register(on: router)
        if let folder = juke.staticFiles {
            StaticFiles(root: folder, prefix: "/static/\(juke.card.slug)/").register(on: router)
            folders.append((folder, "/static/\(juke.card.slug)/"))
        }
    }
    AppShell(cards: apps.map(\.card), folders: folders, deviceKept: apps.flatMap(\.deviceKeptPaths)).register(on: router)
    return router
}
