import Logging
import ServiceLifecycle
import Storage

/// Carries an app's changes between servers sharing a PostgreSQL database: each committed
/// change is NOTIFYed on `channel` (`Relay.send`), and this service LISTENs and hands every
/// payload to `receive`, so a person connected to one server sees what someone did on
/// another (a TuneTrivia reveal, a Back2Back pick). On SQLite it just waits (one server per
/// file). A dropped connection is listened again after a second.
public struct RelayListener: Service {
    let channel: String
    let database: any JukeDatabase
    let logger: Logger
    let receive: @Sendable (String) async -> Void

    public func run() async throws {
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
