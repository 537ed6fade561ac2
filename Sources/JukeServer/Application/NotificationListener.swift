import Logging
import ServiceLifecycle
import Storage

/// Carries an app's changes between servers sharing a PostgreSQL database: each committed
/// change is NOTIFYed on `channel`, and this service LISTENs and hands every payload to
/// `receive`, so a person connected to one server sees what someone did on another (a
/// TuneTrivia reveal, a Back2Back pick). On SQLite it just waits (one server per file).
struct NotificationListener: Service {
    /// TuneTrivia: "<origin> <session> <push targets>" or "… D" for a deleted game.
    static let tuneTrivia = "juke_tunetrivia"
    /// Back2Back: "<origin> <session> <version>" or "… D" for a deleted session.
    static let back2back = "juke_back2back"

    let channel: String
    let database: any JukeDatabase
    let logger: Logger
    let receive: @Sendable (String) async -> Void

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await database.listen(channel: channel) { payload in await receive(payload) }
                } catch is CancellationError {
                    return
                } catch {
                    // The connection dropped: listen again shortly.
                    logger.warning("notifications interrupted", metadata: ["channel": "\(channel)", "error": "\(error)"])
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }
}
