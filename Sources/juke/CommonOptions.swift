import ArgumentParser
import Foundation
import JukePlatform
import JukeServer
import Logging
import Storage

/// Where the data is, shared by the commands that work on a server's data, so that the
/// command line works on the same data as a running server. The same settings as
/// `juke serve`'s (`PlatformSettings`), with their words.
struct DataOptions: ParsableArguments {
    @Option(name: .customLong(PlatformSettings.dataDir.name), help: ArgumentHelp(Self.help(PlatformSettings.dataDir)))
    var dataDir: String?

    @Option(name: .customLong(PlatformSettings.database.name), help: ArgumentHelp(Self.help(PlatformSettings.database)))
    var database: String?

    @Option(name: .customLong(PlatformSettings.logLevel.name), help: ArgumentHelp(Self.help(PlatformSettings.logLevel)))
    var logLevel: String?

    static func help(_ setting: Setting) -> String { "\(setting.help) (env \(setting.environment); default \(setting.defaultValue))" }

    /// These three settings, from the flags or the environment.
    func settings() throws -> PlatformSettings {
        var arguments: [String] = []
        for (setting, value) in [(PlatformSettings.dataDir, dataDir), (PlatformSettings.database, database), (PlatformSettings.logLevel, logLevel)] {
            if let value { arguments += [setting.flag, value] }
        }
        do {
            let values = try SettingValues.parse(
                arguments: arguments, environment: ProcessInfo.processInfo.environment,
                settings: [PlatformSettings.dataDir, PlatformSettings.database, PlatformSettings.logLevel])
            return try PlatformSettings(values)
        } catch let error as SettingError {
            throw ValidationError(error.description)
        }
    }

    func logger(label: String = "juke") throws -> Logger {
        try Self.logger(level: try settings().logLevel, label: label)
    }

    static func logger(level text: String, label: String = "juke") throws -> Logger {
        guard let level = Logger.Level(rawValue: text) else {
            throw ValidationError("unknown log level '\(text)'; use trace, debug, info, notice, warning, error or critical")
        }
        var logger = Logger(label: label)
        logger.logLevel = level
        return logger
    }

    func configuration(installDemo: Bool = true) throws -> ServerConfiguration {
        var settings = try settings()
        settings.demo = installDemo
        do {
            return try settings.configuration()
        } catch let error as SettingError {
            throw ValidationError(error.description)
        }
    }
}
