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

    public init(channel: String, database: any JukeDatabase, origin: UUID = UUID()) {
        self.channel = channel
        self.database = database
        self.origin = origin
    }

    /// Tells the other servers that `subject` changed. A lost NOTIFY costs the watchers on
    /// other servers a late refresh, never data: the change is already committed.
    public func send(_ subject: String, _ detail: String) async {
        try? await database.notify(channel: channel, payload: RelayMessage.prefix(origin: origin, subject: subject) + detail)
    }

    /// The start of a payload about `subject`, for a commit that NOTIFYs in its own statement.
    public func prefix(_ subject: String) -> String { RelayMessage.prefix(origin: origin, subject: subject) }

    /// The other servers' messages in this format; its own and malformed ones are dropped.
    public func accepts(_ payload: String) -> RelayMessage? {
        guard let message = RelayMessage(payload: payload), message.origin != origin else { return nil }
        return message
    }

    /// The service that listens while the server runs and hands each message to `receive`.
    public func listener(logger: Logger, _ receive: @escaping @Sendable (RelayMessage) async -> Void) -> RelayListener {
        RelayListener(channel: channel, database: database, logger: logger) { payload in
            if let message = accepts(payload) { await receive(message) }
        }
    }
}
