import Foundation
import JukeCore
import LiveUpdates
import Logging
import TuneTrivia

/// Who is watching which game, and the pushing of each change to their screens.
///
/// When a frame goes out and to whom is decided by each game's `PushPlan` (LiveUpdates), a
/// pure state machine; this actor performs what it decides. A change arrives with the game
/// after it (from this server's commit, or loaded after another server's NOTIFY) and the
/// screens it redraws (`PushTargets`). A frame (`TriviaFrame`) is built outside the actor
/// from the newest version, once, and handed to the connections concerned: a WebSocket's
/// event loop writes its viewer's message straight onto it (`TriviaSocket`), a server-sent
/// event stream's task takes it from its mailbox. Timers (the pace, the settling time, the
/// heartbeat) run on an injected clock, so tests move time by hand.
actor TriviaHub {
    private struct Watcher {
        let user: UserID
        /// Where the game's end is posted, and for a stream without a socket, its frames.
        let mailbox: TriviaMailbox
        /// A WebSocket's channel, written to from its event loop.
        let socket: TriviaSocket?
        /// Which tick of the heartbeat pings this connection.
        let beatSlot: Int
    }

    private struct Room {
        var plan: PushPlan
        var watchers: [UUID: Watcher] = [:]
        /// The connections each heartbeat tick pings: a tick comes ten times a second, so it
        /// looks up its slice rather than going through every connection of the room.
        var bySlot: [Int: Set<UUID>] = [:]
        /// The players' WebSockets (not the host's), by event loop: what a change for
        /// everyone is written to.
        var crowd = SocketGroups()
        /// The connections without a WebSocket (server-sent events), which take frames from
        /// their mailboxes.
        var streams: Set<UUID> = []
        var latest: (game: Game, version: Int)
        /// The newest frame built, reused while the game has not changed.
        var frame: TriviaFrame?
        /// The one timer the plan asked for, at the earliest time it asked.
        var timer: (at: ContinuousClock.Instant, task: Task<Void, Never>)?
        var heartbeat: Task<Void, Never>?
        var subscriptions = 0

        init(game: Game, version: Int, timing: PushPlan.Timing) {
            plan = PushPlan(host: game.host, timing: timing)
            latest = (game, version)
        }
    }

    private var rooms: [SessionID: Room] = [:]
    private let timing: PushPlan.Timing
    private let beats: HeartbeatSchedule
    private let clock: any LiveClock
    private let logger: Logger

    /// - Parameters:
    ///   - settle: how soon the whole room sees who joined or left.
    ///   - pace: the least time between two frames that only the host and a few players
    ///     wait for (answers coming in): a thousand answers a second make ten frames, not a
    ///     thousand. Frames for everyone (start, reveal, next song) go out at once.
    ///   - pacePerWatcher: added to `pace` for every open connection. The host's frame
    ///     ranks every answer of the round (it shows the first hundred), so its cost grows
    ///     with the room, and each frame also goes to every player who answered since the
    ///     last: in a room of ten thousand, ten a second took CPU the answers themselves
    ///     need. There the host's list is redrawn about once a second; in a room of fifty,
    ///     as good as live.
    init(
        heartbeat: Duration = .seconds(15), settle: Duration = .seconds(1), pace: Duration = .milliseconds(100),
        pacePerWatcher: Duration = .microseconds(100), clock: any LiveClock = SystemLiveClock(),
        logger: Logger = Logger(label: "juke.tunetrivia.hub")
    ) {
        timing = PushPlan.Timing(settle: settle, pace: pace, pacePerWatcher: pacePerWatcher)
        beats = HeartbeatSchedule(interval: heartbeat)
        self.clock = clock
        self.logger = logger
    }

    // MARK: - Connections

    /// A mailbox for one connection of `user` to the game, which gets the current state
    /// first (on `socket`, when the connection has one). The caller reads it until done,
    /// then calls `unsubscribe`.
    func subscribe(_ id: SessionID, user: UserID, game: Game, version: Int, socket: TriviaSocket? = nil) -> TriviaMailbox {
        let mailbox = TriviaMailbox()
        if rooms.index(forKey: id) == nil {
            rooms[id] = Room(game: game, version: version, timing: timing)
            rooms[id]?.heartbeat = heartbeats(id)
        }
        // In place, through the dictionary: a copy of the room would copy its ten thousand
        // watchers for every arrival.
        let slot = beats.slot(forSubscription: rooms[id]?.subscriptions ?? 0)
        rooms[id]?.subscriptions += 1
        rooms[id]?.watchers[mailbox.token] = Watcher(user: user, mailbox: mailbox, socket: socket, beatSlot: slot)
        rooms[id]?.bySlot[slot, default: []].insert(mailbox.token)
        if let socket {
            if user != game.host { rooms[id]?.crowd.insert(socket, for: mailbox.token) }
        } else {
            rooms[id]?.streams.insert(mailbox.token)
        }
        absorb(id, game: game, version: version)
        let actions = rooms[id]?.plan.subscribe(mailbox.token, viewer: user, version: version, now: clock.now) ?? []
        perform(id, actions)
        return mailbox
    }

    func unsubscribe(_ id: SessionID, _ mailbox: TriviaMailbox) {
        mailbox.close()
        guard let watcher = rooms[id]?.watchers.removeValue(forKey: mailbox.token) else { return }
        rooms[id]?.bySlot[watcher.beatSlot]?.remove(mailbox.token)
        rooms[id]?.crowd.remove(mailbox.token)
        rooms[id]?.streams.remove(mailbox.token)
        let actions = rooms[id]?.plan.unsubscribe(mailbox.token, now: clock.now) ?? []
        if rooms[id]?.plan.isEmpty == true {
            if let room = rooms.removeValue(forKey: id) { close(room) }
            return
        }
        perform(id, actions)
    }

    /// The games someone watches on this server.
    func watched() -> [SessionID] { Array(rooms.keys) }

    /// The users with at least one open connection to the game.
    func online(_ id: SessionID) -> Set<UserID> { rooms[id]?.plan.online ?? [] }

    // MARK: - Changes

    /// The game changed to `version`; `since` is when the change began (a request's arrival).
    func changed(_ id: SessionID, game: Game, version: Int, targets: PushTargets, since: ContinuousClock.Instant) {
        guard rooms.index(forKey: id) != nil, !targets.isEmpty else { return }
        absorb(id, game: game, version: version)
        // Players are told by their accounts' connections.
        var audience = PushPlan.Audience(everyone: targets.everyone, everyoneSoon: targets.everyoneSoon)
        for player in targets.players { if let user = game.players[player]?.user { audience.viewers.insert(user) } }
        let actions = rooms[id]?.plan.changed(version: version, audience: audience, since: since, now: clock.now) ?? []
        perform(id, actions)
    }

    /// The game is gone: every connection says so and closes.
    func deleted(_ id: SessionID) {
        guard let room = rooms.removeValue(forKey: id) else { return }
        close(room)
        for watcher in room.watchers.values { watcher.mailbox.delete() }
    }

    private func absorb(_ id: SessionID, game: Game, version: Int) {
        if let latest = rooms[id]?.latest.version, latest < version { rooms[id]?.latest = (game, version) }
    }

    private func close(_ room: Room) {
        room.timer?.task.cancel()
        room.heartbeat?.cancel()
    }

    // MARK: - What the plan decides

    private func perform(_ id: SessionID, _ actions: [PushPlan.Action]) {
        for action in actions {
            switch action {
            case .wake(let at): wake(id, at: at)
            case .build: build(id)
            case .deliver(let delivery): deliver(id, delivery)
            }
        }
    }

    /// One timer per room, at the earliest time asked for; the plan asks again for the rest.
    private func wake(_ id: SessionID, at: ContinuousClock.Instant) {
        guard let room = rooms[id] else { return }
        if let timer = room.timer {
            guard at < timer.at else { return }
            timer.task.cancel()
        }
        let clock = self.clock
        let task = Task {
            do {
                try await clock.sleep(until: at)
            } catch {
                return  // replaced by an earlier one, or the room closed
            }
            await self.timerFired(id, at: at)
        }
        rooms[id]?.timer = (at, task)
    }

    private func timerFired(_ id: SessionID, at: ContinuousClock.Instant) {
        guard let timer = rooms[id]?.timer, timer.at == at else { return }
        rooms[id]?.timer = nil
        perform(id, rooms[id]?.plan.timerFired(now: clock.now) ?? [])
    }

    /// Builds the frame of the newest version outside the actor (standings and encoding take
    /// milliseconds in a big game) while changes keep arriving.
    private func build(_ id: SessionID) {
        guard let room = rooms[id] else { return }
        let (game, version) = room.latest
        let reusable = room.frame.flatMap { $0.version == version ? $0 : nil }
        Task { await self.makeFrame(id, game: game, version: version, reusable: reusable) }
    }

    private nonisolated func makeFrame(_ id: SessionID, game: Game, version: Int, reusable: TriviaFrame?) async {
        do {
            let frame = try reusable ?? TriviaFrame(game: game, version: version)
            await built(id, frame)
        } catch {
            await buildFailed(id, error)
        }
    }

    private func built(_ id: SessionID, _ frame: TriviaFrame) {
        guard rooms.index(forKey: id) != nil else { return }
        if rooms[id]?.frame.map({ $0.version <= frame.version }) ?? true { rooms[id]?.frame = frame }
        perform(id, rooms[id]?.plan.frameBuilt(now: clock.now) ?? [])
    }

    private func buildFailed(_ id: SessionID, _ error: any Error) {
        logger.error("TuneTrivia frame not built", metadata: ["session": "\(id)", "error": "\(error)"])
        rooms[id]?.plan.frameFailed()
    }

    /// The WebSockets a frame goes to (timed: a change they were waiting for; untimed: a
    /// new connection's first state), and who is online when the host's is among them.
    private struct Sockets {
        /// Every player's WebSocket (a change for everyone), already sorted by event loop.
        var crowd: [SocketGroup] = []
        var timed: [TriviaSocket] = []
        var untimed: [TriviaSocket] = []
        /// The host's WebSockets, which get the host's message.
        var timedHost: [TriviaSocket] = []
        var untimedHost: [TriviaSocket] = []
        /// Who is online (the keys), when the host's screen is among the targets.
        var online: [UserID: Set<UUID>]?

        /// The job that builds the host's message and writes it to the host's sockets, to
        /// run on the event loop of the first of them; nil when no host socket is a target.
        func hostMessage(of frame: TriviaFrame, since: ContinuousClock.Instant?, pace: TriviaSocket.Pace, logger: Logger) -> TriviaSocket.Then? {
            guard let online, let loop = (timedHost.first ?? untimedHost.first)?.eventLoop else { return nil }
            let (timed, untimed) = (timedHost, untimedHost)
            return TriviaSocket.Then(loop: loop) {
                do {
                    let host = try frame.hostMessage(online: Set(online.keys))
                    TriviaSocket.push(frame, since: since, host: host, to: timed, pace: pace)
                    TriviaSocket.push(frame, since: nil, host: host, to: untimed, pace: .unhurried)
                } catch {
                    logger.error("TuneTrivia host message not built", metadata: ["session": "\(frame.game.id)", "error": "\(error)"])
                }
            }
        }
    }

    /// Hands the frame just built to the connections the plan named: the streams' mailboxes
    /// here, the sockets through their event loops.
    private func deliver(_ id: SessionID, _ delivery: PushPlan.Delivery) {
        guard let room = rooms[id], let frame = room.frame else { return }
        let host = room.plan.host
        var sockets = Sockets()
        func send(_ watcher: Watcher, timed isTimed: Bool) {
            if let socket = watcher.socket {
                if watcher.user == host {
                    if isTimed { sockets.timedHost.append(socket) } else { sockets.untimedHost.append(socket) }
                    // The host's screen lists who is online (made a set on the host's loop).
                    if sockets.online == nil { sockets.online = room.plan.connectionsByViewer }
                } else if isTimed {
                    sockets.timed.append(socket)
                } else {
                    sockets.untimed.append(socket)
                }
            } else {
                watcher.mailbox.post(frame, since: isTimed ? delivery.since : nil)
            }
        }
        if delivery.everyone {
            // Everyone: the players' sockets as the room keeps them, then the host's
            // connections and the streams, without going through ten thousand watchers.
            sockets.crowd = room.crowd.groups
            for token in room.plan.connectionsByViewer[host] ?? [] { room.watchers[token].map { send($0, timed: true) } }
            for token in room.streams {
                if let watcher = room.watchers[token], watcher.user != host { send(watcher, timed: true) }
            }
        } else {
            for token in delivery.timed { room.watchers[token].map { send($0, timed: true) } }
            for token in delivery.untimed { room.watchers[token].map { send($0, timed: false) } }
        }
        let pace: TriviaSocket.Pace = delivery.urgent ? .now : .unhurried
        // The host's message ranks every answer and lists who is online: milliseconds in a
        // big room, which nobody else should wait for or share a core with. It is built on
        // the host's event loop once that loop has written the players' messages (the host's
        // own screen already has the reply to the request that made the change).
        let hostJob = sockets.hostMessage(of: frame, since: delivery.since, pace: pace, logger: logger)
        TriviaSocket.push(frame, since: delivery.since, host: nil, to: sockets.crowd, pace: pace, then: hostJob)
        TriviaSocket.push(frame, since: delivery.since, host: nil, to: sockets.timed, pace: pace)
        TriviaSocket.push(frame, since: nil, host: nil, to: sockets.untimed, pace: .unhurried)
    }

    // MARK: - Heartbeat

    /// Pings every connection of the game now and then, so idle ones stay open through
    /// proxies, a slot's share at each tick (`HeartbeatSchedule`).
    private func heartbeats(_ id: SessionID) -> Task<Void, Never> {
        let schedule = beats
        let clock = self.clock
        return Task {
            var slot = 0
            while !Task.isCancelled {
                do {
                    try await clock.sleep(until: clock.now + schedule.tick)
                } catch {
                    return
                }
                await self.beat(id, slot: slot)
                slot = schedule.slot(after: slot)
            }
        }
    }

    private func beat(_ id: SessionID, slot: Int) {
        guard let room = rooms[id] else { return }
        var sockets: [TriviaSocket] = []
        for token in room.bySlot[slot] ?? [] {
            guard let watcher = room.watchers[token] else { continue }
            if let socket = watcher.socket { sockets.append(socket) } else { watcher.mailbox.beat() }
        }
        TriviaSocket.ping(sockets)
    }
}
