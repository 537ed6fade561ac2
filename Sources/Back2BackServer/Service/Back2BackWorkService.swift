import ServiceLifecycle

/// Back2Back's background work (the DJ's picks and directions) in the application's
/// lifecycle: at shutdown it finishes what is under way before the database closes (services
/// stop in the reverse order they were added, and this one is added after the database's).
struct Back2BackWorkService: Service {
    let service: Back2BackService

    func run() async throws {
        try? await gracefulShutdown()
        await service.stop()
    }
}
