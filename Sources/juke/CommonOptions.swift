import ArgumentParser
import Foundation
import JukePlatform
import JukeServer
import Logging
import Storage

/// Where the data is, shared by every command so that the command line works on the same
/// data as a running server.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: "Folder for the database and the demo library (env JUKE_DATA_DIR; default ./data).")
    var dataDir: String?

    @Option(
        name: .long, help: "Database: sqlite:///path/file.sqlite or postgres://user:pass@host:5432/db (env JUKE_DATABASE; default SQLite in the data folder).")
    var database: String?

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error (env JUKE_LOG_LEVEL; default info).")
    var logLevel: String?

    var environment: [String: String] { ProcessInfo.processInfo.environment }

    var resolvedDataDir: String {
        let raw = dataDir ?? environment["JUKE_DATA_DIR"] ?? "./data"
        return URL(fileURLWithPath: raw).standardizedFileURL.path
    }

    func location() throws -> DatabaseLocation {
        do {
            return try DatabaseLocation.parse(database ?? environment["JUKE_DATABASE"], dataDirectory: resolvedDataDir)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func logger(label: String = "juke") throws -> Logger {
        let text = (logLevel ?? environment["JUKE_LOG_LEVEL"] ?? "info").lowercased()
        guard let level = Logger.Level(rawValue: text) else {
            throw ValidationError("unknown log level '\(text)'; use trace, debug, info, notice, warning, error or critical")
        }
        var logger = Logger(label: label)
        logger.logLevel = level
        return logger
    }

    func configuration(host: String = "127.0.0.1", port: Int = 8080, installDemo: Bool = true) throws -> ServerConfiguration {
        ServerConfiguration(host: host, port: port, dataDirectory: resolvedDataDir, database: try location(), installDemoLibrary: installDemo)
    }
}
