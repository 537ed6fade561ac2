import Foundation
import JukeCore
import LiveUpdates
import Logging
import TuneTrivia

/// Who is watching which game, and the pushing of each change to their screens.
///
/// A change arrives with the game after it (from this server's commit, or loaded after
/// another server's NOTIFY) and the screens it redraws (`PushTargets`). One producer per
/// game builds a `TriviaFrame` from the newest version, once, and hands it to the
/// connections concerned: a WebSocket's event loop writes its viewer's message straight
/// onto it (`TriviaSocket`), a server-sent event stream's task from its mailbox. Changes
/// that come faster than frames are built fold into the next frame. Seats and presence
/// (who joined, who is online) are not urgent for anyone but the host and the player
/// concerned: the rest of the room sees them within `settle`, in one frame rather than one
/// per arrival, which is what lets ten thousand phones join one game.
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

    private struct Channel {
        var watchers: [UUID: Watcher] = [:]
        var byUser: [UserID: Set<UUID>] = [:]
        /// The connections each heartbeat tick pings: a tick comes ten times a second, so it
        /// looks up its slice rather than going through every connection of the room.
        var bySlot: [Int: Set<UUID>] = [:]
        /// The players' WebSockets (not the host's), by event loop: what a change for
        /// everyone is written to.
        var crowd = SocketGroups()
        /// The connections without a WebSocket (server-sent events), which take frames from
        /// their mailboxes.
        var streams: Set<UUID> = []
        var latest: (game: Game, version: Int)?
        var frame: TriviaFrame?
        var pending = PushTargets()
        /// Single connections owed the current frame (just subscribed).
        var pendingWatchers: Set<UUID> = []
        /// The host is owed a frame (presence changed).
        var pendingHost = false
        /// Everyone is owed a frame once the settling time is over (seats changed).
        var owedSoon = false
        var since: ContinuousClock.Instant?
        var producing = false
        var lastFrame: ContinuousClock.Instant?
        /// The producer's wait for the pace, cut short when something urgent arrives.
        var pacer: Task<Void, Never>?
        var settling = false
        var heartbeat: Task<Void, Never>?
        var subscriptions = 0

        init(heartbeat: Task<Void, Never>?) { self.heartbeat = heartbeat }

        mutating func absorb(game: Game, version: Int, targets: PushTargets, since: ContinuousClock.Instant) {
            if latest.map({ $0.version < version }) ?? true { latest = (game, version) }
            pending.formUnion(PushTargets(everyone: targets.everyone, players: targets.players))
            owedSoon = owedSoon || targets.everyoneSoon
            self.since = min(self.since ?? since, since)
        }
    }

    private var channels: [SessionID: Channel] = [:]
    private let settle: Duration
    private let pace: Duration
    private let pacePerWatcher: Duration
    private let beats: HeartbeatSchedule
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
        pacePerWatcher: Duration = .microseconds(100), logger: Logger = Logger(label: "juke.tunetrivia.hub")
    ) {
        self.settle = settle
        self.pace = pace
        self.pacePerWatcher = pacePerWatcher
        beats = HeartbeatSchedule(interval: heartbeat)
        self.logger = logger
    }

    // MARK: - Connections

    /// A mailbox for one connection of `user` to the game, which gets the current state
    /// first (on `socket`, when the connection has one). The caller reads it until done,
    /// then calls `unsubscribe`.
    func subscribe(_ id: SessionID, user: UserID, game: Game, version: Int, socket: TriviaSocket? = nil) -> TriviaMailbox {
        let mailbox = TriviaMailbox()
        if channels.index(forKey: id) == nil { channels[id] = Channel(heartbeat: heartbeats(id)) }
        // In place, through the dictionary: a copy of the channel would copy its ten
        // thousand watchers for every arrival.
        let wasOnline = channels[id]?.byUser[user]?.isEmpty == false
        let slot = beats.slot(forSubscription: channels[id]?.subscriptions ?? 0)
        channels[id]?.subscriptions += 1
        channels[id]?.watchers[mailbox.token] = Watcher(user: user, mailbox: mailbox, socket: socket, beatSlot: slot)
        channels[id]?.byUser[user, default: []].insert(mailbox.token)
        channels[id]?.bySlot[slot, default: []].insert(mailbox.token)
        if let socket {
            if user != game.host { channels[id]?.crowd.insert(socket, for: mailbox.token) }
        } else {
            channels[id]?.streams.insert(mailbox.token)
        }
        channels[id]?.pendingWatchers.insert(mailbox.token)
        channels[id]?.pacer?.cancel()  // a new screen gets its first state at once
        if channels[id]?.latest.map({ $0.version < version }) ?? true { channels[id]?.latest = (game, version) }
        // Someone came online: the host's list shows it.
        if !wasOnline { presenceChanged(id) }
        produce(id)
        return mailbox
    }

    func unsubscribe(_ id: SessionID, _ mailbox: TriviaMailbox) {
        mailbox.close()
        guard let watcher = channels[id]?.watchers.removeValue(forKey: mailbox.token) else { return }
        channels[id]?.byUser[watcher.user]?.remove(mailbox.token)
        channels[id]?.bySlot[watcher.beatSlot]?.remove(mailbox.token)
        channels[id]?.crowd.remove(mailbox.token)
        channels[id]?.streams.remove(mailbox.token)
        channels[id]?.pendingWatchers.remove(mailbox.token)
        let nowOffline = channels[id]?.byUser[watcher.user]?.isEmpty == true
        if nowOffline { channels[id]?.byUser[watcher.user] = nil }
        if channels[id]?.watchers.isEmpty == true {
            channels[id]?.heartbeat?.cancel()
            channels[id] = nil
            return
        }
        // Their last connection closed: they are offline now.
        if nowOffline { presenceChanged(id) }
    }

    /// The users with at least one open connection to the game.
    func online(_ id: SessionID) -> Set<UserID> { Set((channels[id]?.byUser ?? [:]).keys) }

    // MARK: - Changes

    /// The game changed to `version`; `since` is when the change began (a request's arrival).
    func changed(_ id: SessionID, game: Game, version: Int, targets: PushTargets, since: ContinuousClock.Instant) {
        guard channels.index(forKey: id) != nil, !targets.isEmpty else { return }
        channels[id]?.absorb(game: game, version: version, targets: targets, since: since)  // in place: this runs per command
        if targets.everyone { channels[id]?.pacer?.cancel() }  // a reveal does not wait for the pace
        if targets.everyoneSoon { settleSoon(id) }
        produce(id)
    }

    /// The game is gone: every connection says so and closes.
    func deleted(_ id: SessionID) {
        guard let channel = channels.removeValue(forKey: id) else { return }
        channel.heartbeat?.cancel()
        for watcher in channel.watchers.values { watcher.mailbox.delete() }
    }

    private func presenceChanged(_ id: SessionID) {
        channels[id]?.pendingHost = true
        settleSoon(id)
    }

    /// The frame owed to everyone (seats) or to the host (presence) goes out within
    /// `settle`, once for all the changes of that time.
    private func settleSoon(_ id: SessionID) {
        guard var channel = channels[id], !channel.settling else { return }
        channel.settling = true
        channels[id] = channel
        let delay = settle
        Task {
            try? await Task.sleep(for: delay)
            self.settled(id)
        }
    }

    private func settled(_ id: SessionID) {
        guard var channel = channels[id] else { return }
        channel.settling = false
        if channel.owedSoon {
            channel.owedSoon = false
            channel.pending.everyone = true
        }
        channels[id] = channel
        produce(id)
    }

    // MARK: - Frames

    private func produce(_ id: SessionID) {
        guard var channel = channels[id], !channel.producing else { return }
        channel.producing = true
        channels[id] = channel
        Task { await self.frames(id) }
    }

    private struct Job {
        let game: Game
        let version: Int
        let reusable: TriviaFrame?
    }

    private enum Step {
        case build(Job)
        /// Sleeps until the pace allows the next frame, or until cancelled by an urgent change.
        case wait(Task<Void, Never>)
    }

    /// Builds frames outside the actor (standings and encoding take milliseconds in a big
    /// game) while changes keep arriving, and hands each to `deliver`.
    private nonisolated func frames(_ id: SessionID) async {
        while let step = await nextStep(id) {
            switch step {
            case .wait(let pacer):
                await pacer.value
            case .build(let job):
                do {
                    let frame = try job.reusable ?? TriviaFrame(game: job.game, version: job.version)
                    guard let delivery = await deliver(id, frame) else { continue }
                    let pace: TriviaSocket.Pace = delivery.urgent ? .now : .unhurried
                    // The host's message ranks every answer and lists who is online:
                    // milliseconds in a big room, which nobody else should wait for or share a
                    // core with. It is built on the host's event loop once that loop has
                    // written the players' messages (the host's own screen already has the
                    // reply to the request that made the change).
                    let host = delivery.hostMessage(of: frame, since: delivery.since, pace: pace, logger: logger)
                    TriviaSocket.push(frame, since: delivery.since, host: nil, to: delivery.crowd, pace: pace, then: host)
                    TriviaSocket.push(frame, since: delivery.since, host: nil, to: delivery.timed, pace: pace)
                    TriviaSocket.push(frame, since: nil, host: nil, to: delivery.untimed, pace: .unhurried)
                } catch {
                    logger.error("TuneTrivia frame not built", metadata: ["session": "\(id)", "error": "\(error)"])
                    await stopProducing(id)
                    return
                }
            }
        }
    }

    private func stopProducing(_ id: SessionID) { channels[id]?.producing = false }

    private func nextStep(_ id: SessionID) -> Step? {
        guard var channel = channels[id] else { return nil }
        let owed = !channel.pending.isEmpty || !channel.pendingWatchers.isEmpty || channel.pendingHost
        guard owed, let latest = channel.latest else {
            channel.producing = false
            channels[id] = channel
            return nil
        }
        let urgent = channel.pending.everyone || !channel.pendingWatchers.isEmpty
        let pace = self.pace + pacePerWatcher * channel.watchers.count
        if !urgent, let last = channel.lastFrame, ContinuousClock.now < last + pace {
            let pacer = Task<Void, Never> { _ = try? await Task.sleep(until: last + pace, clock: .continuous) }
            channels[id]?.pacer = pacer
            return .wait(pacer)
        }
        let reusable = channel.frame.flatMap { $0.version == latest.version ? $0 : nil }
        return .build(Job(game: latest.game, version: latest.version, reusable: reusable))
    }

    /// The WebSockets a frame goes to (timed: a change they were waiting for; untimed: a
    /// new connection's first state), and who is online when the host's is among them.
    private struct Delivery {
        /// Every player's WebSocket (a change for everyone), already sorted by event loop.
        var crowd: [SocketGroup] = []
        var timed: [TriviaSocket] = []
        var untimed: [TriviaSocket] = []
        /// The host's WebSockets, which get the host's message.
        var timedHost: [TriviaSocket] = []
        var untimedHost: [TriviaSocket] = []
        var since: ContinuousClock.Instant?
        var urgent = false
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

    /// Takes what the frame answers off the channel's list, posts it to the streams without
    /// a socket, and returns the sockets to write it to.
    private func deliver(_ id: SessionID, _ frame: TriviaFrame) -> Delivery? {
        guard var channel = channels[id] else { return nil }
        if channel.frame.map({ $0.version <= frame.version }) ?? true { channel.frame = frame }
        let targets = channel.pending
        let since = channel.since
        let fresh = channel.pendingWatchers
        var changed: Set<UUID> = []
        if !targets.everyone {
            for player in targets.players {
                if let user = frame.game.players[player]?.user { changed.formUnion(channel.byUser[user] ?? []) }
            }
            if !targets.isEmpty || channel.pendingHost { changed.formUnion(channel.byUser[frame.host] ?? []) }
        }
        channel.pending = PushTargets()
        channel.pendingWatchers = []
        channel.pendingHost = false
        channel.since = nil
        channel.lastFrame = .now
        channels[id] = channel
        var delivery = Delivery(since: since, urgent: targets.everyone)
        func send(_ watcher: Watcher, timed isTimed: Bool) {
            if let socket = watcher.socket {
                if watcher.user == frame.host {
                    if isTimed { delivery.timedHost.append(socket) } else { delivery.untimedHost.append(socket) }
                    // The host's screen lists who is online (made a set once it is needed).
                    if delivery.online == nil { delivery.online = channel.byUser }
                } else if isTimed {
                    delivery.timed.append(socket)
                } else {
                    delivery.untimed.append(socket)
                }
            } else {
                watcher.mailbox.post(frame, since: isTimed ? since : nil)
            }
        }
        if targets.everyone {
            // Everyone: the players' sockets as the channel keeps them, then the host's
            // connections and the streams, without going through ten thousand watchers.
            delivery.crowd = channel.crowd.groups
            for token in channel.byUser[frame.host] ?? [] { channel.watchers[token].map { send($0, timed: true) } }
            for token in channel.streams {
                if let watcher = channel.watchers[token], watcher.user != frame.host { send(watcher, timed: true) }
            }
        } else {
            for token in changed { channel.watchers[token].map { send($0, timed: true) } }
            // A connection's first frame is not a change: it is not timed.
            for token in fresh.subtracting(changed) { channel.watchers[token].map { send($0, timed: false) } }
        }
        return delivery
    }

    /// Pings every connection of the game now and then, so idle ones stay open through
    /// proxies, a slot's share at each tick (`HeartbeatSchedule`).
    private func heartbeats(_ id: SessionID) -> Task<Void, Never> {
        let schedule = beats
        return Task {
            var slot = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: schedule.tick)
                self.beat(id, slot: slot)
                slot = schedule.slot(after: slot)
            }
        }
    }

    private func beat(_ id: SessionID, slot: Int) {
        guard let channel = channels[id] else { return }
        var sockets: [TriviaSocket] = []
        for token in channel.bySlot[slot] ?? [] {
            guard let watcher = channel.watchers[token] else { continue }
            if let socket = watcher.socket { sockets.append(socket) } else { watcher.mailbox.beat() }
        }
        TriviaSocket.ping(sockets)
    }
}
