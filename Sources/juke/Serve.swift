import ArgumentParser
import Foundation
import Hummingbird
import JukePlatform
import JukeServer
import Logging

/// `juke serve`: every setting the platform and the apps declare, read from the command line
/// and the environment (`SettingValues`), then the server built on them.
struct Serve: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(abstract: "Runs the Juke server.", discussion: SettingsDocs.help(JukeServer.Juke.settings))
    }

    @Argument(
        parsing: .allUnrecognized, help: ArgumentHelp("Settings, as listed below: --name value, --name=value, --switch or --no-switch.", valueName: "setting"))
    var settings: [String] = []

    /// The platform's settings and the server's configuration with every app's group in it.
    func read(_ environment: [String: String]) throws -> (PlatformSettings, ServerConfiguration) {
        do {
            let values = try SettingValues.parse(arguments: settings, environment: environment, settings: JukeServer.Juke.settings.flatMap { $0.settings })
            let platform = try PlatformSettings(values)
            var configuration = try platform.configuration()
            for group in JukeServer.Juke.settings where ObjectIdentifier(group) != ObjectIdentifier(PlatformSettings.self) {
                configuration.groups.store(try group.init(values))
            }
            return (platform, configuration)
        } catch let error as SettingError {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let (platform, configuration) = try read(ProcessInfo.processInfo.environment)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = try DataOptions.logger(level: platform.logLevel)
        logger.info(
            "starting Juke",
            metadata: [
                "database": "\(configuration.database)", "data": "\(configuration.dataDirectory)",
                "storage": "\(configuration.mediaStore?.summary ?? "the data folder")",
                "ai": "\(configuration.openAI.map { "\($0.baseURL)" } ?? "off: Juke's own trivia and DJ")",
                "push path": "\(configuration.pushPath.rawValue)",
                "public url": "\(configuration.publicURL?.absoluteString ?? "none")",
                "trusted proxies": "\(configuration.trustedProxies.map(\.description).joined(separator: ","))",
            ])
        if platform.pinEventLoops {
            if let cpus = try await EventLoopPinning.pin() {
                logger.info("event loops pinned", metadata: ["cpus": "\(cpus.map(String.init).joined(separator: ","))"])
            }
        }
        let app = try await buildApplication(configuration: configuration, logger: logger)
        try await app.runService()
    }
}
