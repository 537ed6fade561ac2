import Logging
import ServiceLifecycle
import Storage
import TuneTrivia

/// Carries TuneTrivia changes between servers sharing a PostgreSQL database: each committed
/// command is NOTIFYed on `channel` with the screens it changes, and this service LISTENs
/// and has the changed game pushed to the local watchers, so a player connected to one server sees the reveal the host made on another.
/// On SQLite it just waits (one server per file).
struct TriviaNotificationService: Service {
    static let channel = "juke_tunetrivia"
    let database: any JukeDatabase
    let service: TuneTriviaService
    let logger: Logger

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await database.listen(channel: Self.channel) { payload in await service.remoteChange(payload) }
                } catch is CancellationError {
                    return
                } catch {
                    // The connection dropped: listen again shortly.
                    logger.warning("TuneTrivia notifications interrupted", metadata: ["error": "\(error)"])
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }
}
