import ServiceLifecycle

/// Keeps the library current while the server runs: at start it has the search index built; on the first start it creates the demo
/// library; on every start and then every `rescanInterval` it rescans the watched folders
/// (incrementally, so an unchanged library costs one `stat` per file).
struct LibraryUpkeepService: Service {
    let platform: Platform

    func run() async throws {
        // The search index is built now, in the background, rather than on the first search
        // (seconds at 100,000 tracks); searches meanwhile are answered by the database.
        await platform.search.prepare()
        // The first start's demo library takes a minute on a busy machine: a shutdown meanwhile
        // stops it between pieces instead of waiting for the rest (it took 70 s to exit).
        let installedDemo =
            platform.configuration.installDemoLibrary
            ? await cancelWhenGracefulShutdown { [platform] in await platform.installDemoLibraryIfEmpty() } : false
        if Task.isShuttingDownGracefully || Task.isCancelled { return }
        if !installedDemo { try? await platform.scans.startAll() }
        guard let interval = platform.configuration.rescanInterval else {
            try? await gracefulShutdown()
            return
        }
        // A service that returns would stop the whole group: loop until shutdown.
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(interval)) }
            if Task.isShuttingDownGracefully || Task.isCancelled { break }
            try? await platform.scans.startAll()
        }
    }
}
