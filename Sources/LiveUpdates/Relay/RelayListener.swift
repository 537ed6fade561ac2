import Logging
import ServiceLifecycle
import Storage

/// Carries an app's changes between servers sharing a PostgreSQL database: each committed
/// change is NOTIFYed on `channel` (`Relay.send`), and this service LISTENs and hands every
/// payload to `receive`, so a person connected to one server sees what someone did on
/// another (a TuneTrivia reveal, a Back2Back pick). On SQLite it just waits (one server per
/// file). A dropped connection is listened again after a second; what was NOTIFYed while
/// nobody listened is lost, so once listening again the app is told to `resync` (reload
/// what its watchers here see).
public struct RelayListener: Service {
    let channel: String
    let database: any JukeDatabase
    let logger: Logger
    let resync: @Sendable () async -> Void
    let receive: @Sendable (String) async -> Void

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            var interrupted = false
            while !Task.isCancelled {
                do {
                    let (channel, logger, resync) = (channel, logger, resync)
                    let wasInterrupted = interrupted
                    try await database.listen(
                        channel: channel,
                        listening: {
                            guard wasInterrupted else { return }
                            logger.notice("notifications listened again: resyncing", metadata: ["channel": "\(channel)"])
                            await resync()
                        }, receive)
                } catch is CancellationError {
                    return
                } catch {
                    // The connection dropped: listen again shortly.
                    logger.warning("notifications interrupted", metadata: ["channel": "\(channel)", "error": "\(error)"])
                    interrupted = true
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }
}
