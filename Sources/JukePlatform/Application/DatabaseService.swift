import ServiceLifecycle
import Storage

/// Keeps the database open for the application's lifetime and closes it on shutdown.
struct DatabaseService: Service {
    let database: any JukeDatabase

    func run() async throws {
        try? await gracefulShutdown()
        await database.shutdown()
    }
}
