import ServiceLifecycle

/// Keeps the library current while the server runs: on the first start it creates the demo
/// library; on every start and then every `rescanInterval` it rescans the watched folders
/// (incrementally, so an unchanged library costs one `stat` per file).
struct LibraryUpkeepService: Service {
    let services: AppServices

    func run() async throws {
        let installedDemo = services.configuration.installDemoLibrary ? await services.installDemoLibraryIfEmpty() : false
        if !installedDemo { try? await services.scans.startAll() }
        guard let interval = services.configuration.rescanInterval else {
            try? await gracefulShutdown()
            return
        }
        // A service that returns would stop the whole group: loop until shutdown.
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(interval)) }
            if Task.isShuttingDownGracefully || Task.isCancelled { break }
            try? await services.scans.startAll()
        }
    }
}
