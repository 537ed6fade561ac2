import ArgumentParser
import Foundation
import Hummingbird
import JukeServer
import Logging

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Runs the Juke server.")

    @OptionGroup var data: DataOptions

    @Option(name: .long, help: "Address to listen on (env JUKE_HOST; default 127.0.0.1).")
    var host: String?

    @Option(name: .long, help: "Port to listen on (env JUKE_PORT; default 8080).")
    var port: Int?

    @Flag(name: .long, help: "Do not create the demo library on the first start.")
    var noDemo = false

    func run() async throws {
        let env = ProcessInfo.processInfo.environment
        let host = host ?? env["JUKE_HOST"] ?? "127.0.0.1"
        guard let port = port ?? Int(env["JUKE_PORT"] ?? "8080"), (1...65535).contains(port) else {
            throw ValidationError("the port must be a number from 1 to 65535")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = try data.logger()
        let configuration = try data.configuration(host: host, port: port, installDemo: !noDemo)
        logger.info("starting Juke", metadata: ["database": "\(configuration.database)", "data": "\(configuration.dataDirectory)"])
        let app = try await buildApplication(configuration: configuration, logger: logger)
        try await app.runService()
    }
}
