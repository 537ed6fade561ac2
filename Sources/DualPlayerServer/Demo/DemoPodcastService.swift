import Foundation
import JukePlatform
import ServiceLifecycle

/// Juke's demo show, made once per server (in the background) on a server that installs the
/// demo library, so subscribing, refreshing and playing podcasts work with no network. Without
/// espeak-ng or ffmpeg the server runs on and says what is missing.
struct DemoPodcastService: Service {
    let platform: Platform

    static func folder(dataDirectory: String) -> String { dataDirectory + "/dual/demo-podcast" }

    func run() async throws {
        if platform.configuration.installDemoLibrary {
            do {
                // A shutdown meanwhile ends espeak-ng and ffmpeg rather than waiting for the show.
                try await cancelWhenGracefulShutdown { try await ensureDemo() }
            } catch let error where Task.isShuttingDownGracefully || Task.isCancelled {
                platform.logger.info("Dual Player's demo show is unfinished: the server is stopping", metadata: ["error": "\(error)"])
            } catch {
                platform.logger.error("could not make Dual Player's demo show", metadata: ["error": "\(error)"])
            }
        }
        try? await gracefulShutdown()
    }

    func ensureDemo() async throws {
        let folder = Self.folder(dataDirectory: platform.configuration.dataDirectory)
        guard !FileManager.default.fileExists(atPath: folder + "/feed.xml") else { return }
        switch DemoPodcastMaker.find(slots: platform.tools) {
        case .failure(let missing):
            platform.logger.warning("Dual Player's demo show is skipped: \(missing). Install espeak-ng and ffmpeg (Scripts/run.sh does) to have it.")
        case .success(let maker):
            platform.logger.info("making Dual Player's demo show", metadata: ["folder": "\(folder)"])
            // Published a day apart, ending yesterday: fixed by the server's first start.
            let published = platform.clock.now().addingTimeInterval(-3 * 86_400)
            try await maker.write(to: folder, published: published)
        }
    }
}
