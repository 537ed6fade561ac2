import Back2BackServer
import DualPlayerServer
import Foundation
import Hummingbird
import JukeCore
import JukePlatform
import LiveUpdates
import Logging
import RunBeatServer
import Storage
import TuneTriviaServer

/// The composition root: the one place that names every app. Adding an app means adding
/// its modules (engine, API, server) and a line in `schemas` and in `AppServices` (the recipe
/// is in docs/ARCHITECTURE.md).
public enum Juke {
    /// Every app's tables, migrated after the platform's, in this order.
    public static let schemas: [Schema] = [TuneTriviaApp.schema, Back2BackApp.schema, DualPlayerApp.schema, RunBeatApp.schema]

    /// Every setting group: the platform's, then each app's, in the order the docs list them.
    public static let settings: [any SettingsGroup.Type] =
        [PlatformSettings.self] + appTypes.flatMap { $0.settings }

    /// The apps, as types: what each declares before any is built.
    static let appTypes: [any JukeApp.Type] = [TuneTriviaApp.self, Back2BackApp.self, DualPlayerApp.self, RunBeatApp.self]

    /// Apps still being built, shown on the home page as coming soon.
    static let comingSoon: [AppCard] = []
}

/// The platform with every app built on it, shared by every route.
public struct AppServices: Sendable {
    public let platform: Platform
    public let tuneTriviaApp: TuneTriviaApp
    public let back2backApp: Back2BackApp
    public let dualPlayerApp: DualPlayerApp
    public let runBeatApp: RunBeatApp

    /// The apps in the order their routes and services are added.
    public var apps: [any JukeApp] { [tuneTriviaApp, back2backApp, dualPlayerApp, runBeatApp] }

    /// `timers`: the clock the apps' timers sleep on; the system's, or a manual one in tests.
    public init(platform: Platform, timers: any LiveClock = SystemLiveClock()) {
        self.platform = platform
        self.tuneTriviaApp = TuneTriviaApp(platform: platform)
        self.back2backApp = Back2BackApp(platform: platform, timers: timers)
        self.dualPlayerApp = DualPlayerApp(platform: platform)
        self.runBeatApp = RunBeatApp(platform: platform)
    }

    /// Builds the platform on a database that is already open and migrated (tests).
    public init(
        configuration: ServerConfiguration, database: any JukeDatabase, clock: WallClock, timers: any LiveClock = SystemLiveClock(),
        logger: Logger
    ) {
        self.init(platform: Platform(configuration: configuration, database: database, clock: clock, logger: logger), timers: timers)
    }

    public var configuration: ServerConfiguration { platform.configuration }
    public var database: any JukeDatabase { platform.database }
    public var users: UserStore { platform.users }
    public var library: LibraryStore { platform.library }
    public var clock: WallClock { platform.clock }
    public var logger: Logger { platform.logger }
}

/// Opens the database the configuration names, migrates it, and builds Juke on it.
public func makeServices(configuration: ServerConfiguration, clock: WallClock = .system, logger: Logger) async throws -> AppServices {
    AppServices(platform: try await openPlatform(configuration: configuration, schemas: Juke.schemas, clock: clock, logger: logger))
}

/// Juke as `juke serve` runs it.
public func buildApplication(configuration: ServerConfiguration, clock: WallClock = .system, logger: Logger) async throws
    -> some ApplicationProtocol
{
    try buildApplication(services: try await makeServices(configuration: configuration, clock: clock, logger: logger))
}

/// The application around services that are already open (tests pass their own database).
public func buildApplication(services: AppServices) throws -> some ApplicationProtocol {
    try buildApplication(platform: services.platform, apps: services.apps, comingSoon: Juke.comingSoon)
}
