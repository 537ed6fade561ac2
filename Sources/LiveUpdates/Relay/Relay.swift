import Foundation
import Logging
import Storage

/// One app's line to the other servers sharing its database: `send` NOTIFYs a change on the
/// app's channel; `listener` LISTENs and hands every other server's message to the app. On
/// SQLite (one server per file) sending does nothing and the listener just waits.
public struct Relay: Sendable {
    /// The channel, one per app ("juke_tunetrivia").
    public let channel: String
    /// This server, so that it skips its own messages.
    public let origin: UUID
    let database: any JukeDatabase
    let logger: Logger

    public init(channel: String, database: any JukeDatabase, origin: UUID = UUID(), logger: Logger = Logger(label: "juke.relay")) {
        self.channel = channel
        self.database = database
        self.origin = origin
        self.logger = logger
    }

    /// Tells the other servers that `subject` changed.
    public func send(_ subject: String, _ detail: String) async {
        await send(payload: RelayMessage.prefix(origin: origin, subject: subject) + detail)
    }

    /// Sends a payload already in this format (`prefix` and a piece of detail). A NOTIFY that
    /// fails is tried once more, then logged: the change is already committed, but the other
    /// servers' watchers would not hear of it until their next change.
    public func send(payload: String) async {
        do {
            try await database.notify(channel: channel, payload: payload)
        } catch {
            do {
                try await database.notify(channel: channel, payload: payload)
            } catch {
                logger.error(
                    "change not relayed to the other servers", metadata: ["channel": "\(channel)", "payload": "\(payload.prefix(80))", "error": "\(error)"])
            }
        }
    }

    /// The start of a payload about `subject`, for a commit that NOTIFYs in its own statement.
    public func prefix(_ subject: String) -> String { RelayMessage.prefix(origin: origin, subject: subject) }

    /// The other servers' messages in this format; its own and malformed ones are dropped.
    public func accepts(_ payload: String) -> RelayMessage? {
        guard let message = RelayMessage(payload: payload), message.origin != origin else { return nil }
        return message
    }

    /// The service that listens while the server runs and hands each message to `receive`.
    /// After a dropped connection is listened again, `resync` reloads what this server's
    /// watchers see: what other servers sent meanwhile is lost.
    public func listener(
        logger: Logger, resync: @escaping @Sendable () async -> Void = {}, _ receive: @escaping @Sendable (RelayMessage) async -> Void
    ) -> RelayListener {
        RelayListener(channel: channel, database: database, logger: logger, resync: resync) { payload in
            if let message = accepts(payload) { await receive(message) }
        }
    }
}
