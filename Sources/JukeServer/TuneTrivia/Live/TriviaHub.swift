import Foundation
import JukeCore
import TuneTrivia

/// Who is watching which game, so that every change reaches every open connection (event
/// stream or WebSocket) at once. A change is only a signal: each connection then renders the
/// game as its own viewer may see it. Signals coalesce (a connection busy sending one state
/// gets the next change once, not a backlog), and each subscription also gets a heartbeat so
/// idle connections stay open through proxies.
actor TriviaHub {
    enum Signal: Sendable { case changed, heartbeat }

    private var subscribers: [SessionID: [UUID: AsyncStream<Signal>.Continuation]] = [:]
    /// Who each subscription belongs to, for showing the host who is offline.
    private var watchers: [SessionID: [UUID: UserID]] = [:]
    private let heartbeat: Duration

    init(heartbeat: Duration = .seconds(15)) { self.heartbeat = heartbeat }

    /// A stream of signals for one game, open until the caller stops iterating.
    func subscribe(_ id: SessionID, user: UserID) -> AsyncStream<Signal> {
        let token = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingNewest(1))
        let wasOnline = online(id).contains(user)
        subscribers[id, default: [:]][token] = continuation
        watchers[id, default: [:]][token] = user
        // Someone came online: everyone's view changes (the host's list shows it).
        if !wasOnline { changed(id) }
        let beat = heartbeat
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: beat)
                continuation.yield(.heartbeat)
            }
        }
        continuation.onTermination = { _ in
            ticker.cancel()
            Task { await self.remove(id, token) }
        }
        continuation.yield(.changed)  // the current state first
        return stream
    }

    func changed(_ id: SessionID) {
        for continuation in (subscribers[id] ?? [:]).values { continuation.yield(.changed) }
    }

    /// The users with at least one open connection to the game.
    func online(_ id: SessionID) -> Set<UserID> { Set((watchers[id] ?? [:]).values) }

    private func remove(_ id: SessionID, _ token: UUID) {
        subscribers[id]?[token] = nil
        let user = watchers[id]?.removeValue(forKey: token)
        if subscribers[id]?.isEmpty == true {
            subscribers[id] = nil
            watchers[id] = nil
        }
        // Their last connection closed: they are offline now.
        if let user, !online(id).contains(user) { changed(id) }
    }
}
