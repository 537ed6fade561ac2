import Foundation
public import JukeCore

/// When one room's screens (a game's, a session's) get a new frame, and which screens: a
/// pure state machine. The hub that owns the sockets tells it what happened (a connection
/// came or went, the subject changed, a timer fired, a frame was built) with the time, and
/// performs the actions it returns (build a frame, deliver it, wake up later). Nothing here
/// reads a clock, sleeps or touches a socket, so every rule is tested with made-up times.
///
/// The rules:
/// - A change is drawn once into a frame, from the newest version; changes that come while
///   a frame is being built wait for the next one, which carries them all.
/// - A change for everyone (a reveal) and a new connection's first state go out at once.
///   Other changes (answers coming in, redrawn for the host and the players concerned) are
///   paced: at most one frame per `pace`, plus `pacePerWatcher` for every open connection,
///   since the host's frame grows with the room.
/// - Who is seated and who is online are not urgent for anyone but the host and the viewer
///   concerned: the rest of the room sees them within `settle`, in one frame for all the
///   arrivals of that time. In a big room, the frame for everyone comes no more often than
///   `settlePerWatcher` per connection (10 s for 10,000): each costs a write to every phone,
///   and answers arriving while it goes out wait behind it (at one a second, it put the
///   10,000-player answer p99 at 57-65 ms against 4-6 ms).
/// - The host's screens get every change.
public struct PushPlan: Sendable {
    public struct Timing: Sendable, Equatable {
        public var settle: Duration
        public var pace: Duration
        public var pacePerWatcher: Duration
        public var settlePerWatcher: Duration

        public init(
            settle: Duration = .seconds(1), pace: Duration = .milliseconds(100), pacePerWatcher: Duration = .microseconds(100),
            settlePerWatcher: Duration = .milliseconds(1)
        ) {
            self.settle = settle
            self.pace = pace
            self.pacePerWatcher = pacePerWatcher
            self.settlePerWatcher = settlePerWatcher
        }
    }

    /// Who a change is for.
    public struct Audience: Sendable, Equatable {
        /// Every screen, now.
        public var everyone: Bool
        /// These viewers' screens, now (the host's always).
        public var viewers: Set<UserID>
        /// Every screen, within the settling time (seats changed).
        public var everyoneSoon: Bool

        public init(everyone: Bool = false, viewers: Set<UserID> = [], everyoneSoon: Bool = false) {
            self.everyone = everyone
            self.viewers = viewers
            self.everyoneSoon = everyoneSoon
        }

        public var isEmpty: Bool { !everyone && viewers.isEmpty && !everyoneSoon }
    }

    /// Which connections a built frame goes to.
    public struct Delivery: Sendable, Equatable {
        /// Every connection: the hub writes to all of them without listing them here.
        public var everyone = false
        /// Connections whose screen the change redraws: the delivery is timed from `since`.
        public var timed: Set<UUID> = []
        /// New connections' first state: not a change, so not timed.
        public var untimed: Set<UUID> = []
        /// When the oldest change in the frame was made.
        public var since: ContinuousClock.Instant?
        /// Whether it goes out at once rather than at an unhurried pace.
        public var urgent = false

        public init(
            everyone: Bool = false, timed: Set<UUID> = [], untimed: Set<UUID> = [], since: ContinuousClock.Instant? = nil, urgent: Bool = false
        ) {
            self.everyone = everyone
            self.timed = timed
            self.untimed = untimed
            self.since = since
            self.urgent = urgent
        }
    }

    public enum Action: Sendable, Equatable {
        /// Build a frame of this version (the newest the hub was given).
        case build(version: Int)
        /// Send the frame just built to these connections.
        case deliver(Delivery)
        /// Call `timerFired` at this time. The hub keeps one timer, at the earliest time asked
        /// for; `timerFired` asks again for whatever is still to come.
        case wake(at: ContinuousClock.Instant)
    }

    struct Owed: Sendable, Equatable {
        var everyone = false
        var viewers: Set<UserID> = []
        var host = false
        var fresh: Set<UUID> = []
        var since: ContinuousClock.Instant?

        var isEmpty: Bool { !everyone && viewers.isEmpty && !host && fresh.isEmpty }
        var urgent: Bool { everyone || !fresh.isEmpty }
    }

    public let host: UserID
    let timing: Timing
    /// Each connection's viewer.
    private(set) var viewerOf: [UUID: UserID] = [:]
    /// Each viewer's connections; a viewer with one is online.
    private(set) var connections: [UserID: Set<UUID>] = [:]
    private(set) var latest: Int?
    /// What the next frame owes, and what the frame being built owes.
    private(set) var owed = Owed()
    private(set) var inFlight: Owed?
    /// Everyone is owed a frame once the room's settling time is over (`roomSettleAt`).
    private(set) var owedSoon = false
    private(set) var roomSettleAt: ContinuousClock.Instant?
    /// The host is owed a frame once the settling time is over (presence).
    private(set) var settleAt: ContinuousClock.Instant?
    private(set) var lastFrame: ContinuousClock.Instant?

    public init(host: UserID, timing: Timing) {
        self.host = host
        self.timing = timing
    }

    /// The viewers with at least one open connection.
    public var online: Set<UserID> { Set(connections.keys) }
    /// Each online viewer's connections (a copy costs nothing until either side changes).
    public var connectionsByViewer: [UserID: Set<UUID>] { connections }
    public var connectionCount: Int { viewerOf.count }
    public var isEmpty: Bool { viewerOf.isEmpty }
    /// Whether a frame is being built.
    public var building: Bool { inFlight != nil }

    // MARK: - Events

    /// A connection of `viewer` opened; the hub has the subject at `version`.
    public mutating func subscribe(_ token: UUID, viewer: UserID, version: Int, now: ContinuousClock.Instant) -> [Action] {
        guard viewerOf[token] == nil else { return [] }
        let wasOnline = connections[viewer] != nil
        viewerOf[token] = viewer
        connections[viewer, default: []].insert(token)
        latest = max(latest ?? version, version)
        owed.fresh.insert(token)
        var actions: [Action] = []
        // Someone came online: the host's list shows it.
        if !wasOnline { actions += presenceChanged(now: now) }
        return actions + produce(now: now)
    }

    /// A connection closed. When the room is empty the hub drops it.
    public mutating func unsubscribe(_ token: UUID, now: ContinuousClock.Instant) -> [Action] {
        guard let viewer = viewerOf.removeValue(forKey: token) else { return [] }
        connections[viewer]?.remove(token)
        owed.fresh.remove(token)
        inFlight?.fresh.remove(token)
        guard connections[viewer]?.isEmpty == true else { return [] }
        // Their last connection closed: they are offline now.
        connections[viewer] = nil
        return isEmpty ? [] : presenceChanged(now: now)
    }

    /// The subject changed to `version`; `since` is when the change began (a request's arrival).
    public mutating func changed(version: Int, audience: Audience, since: ContinuousClock.Instant, now: ContinuousClock.Instant) -> [Action] {
        guard !isEmpty, !audience.isEmpty else { return [] }
        latest = max(latest ?? version, version)
        owed.everyone = owed.everyone || audience.everyone
        owed.viewers.formUnion(audience.viewers)
        // Every change redraws the host's screen.
        owed.host = true
        owed.since = min(owed.since ?? since, since)
        var actions: [Action] = []
        if audience.everyoneSoon {
            owedSoon = true
            if roomSettleAt == nil {
                let at = now + max(timing.settle, timing.settlePerWatcher * viewerOf.count)
                roomSettleAt = at
                actions.append(.wake(at: at))
            }
        }
        return actions + produce(now: now)
    }

    /// The time asked for by a `wake` has come.
    public mutating func timerFired(now: ContinuousClock.Instant) -> [Action] {
        if let settleAt, settleAt <= now { self.settleAt = nil }
        if let roomSettleAt, roomSettleAt <= now {
            self.roomSettleAt = nil
            if owedSoon {
                owedSoon = false
                owed.everyone = true
            }
        }
        let settling: [Action] = [settleAt, roomSettleAt].compactMap { $0 }.map { .wake(at: $0) }
        return settling + produce(now: now)
    }

    /// The frame asked for by `build` is ready: where it goes, and what comes next.
    public mutating func frameBuilt(now: ContinuousClock.Instant) -> [Action] {
        guard let sent = inFlight else { return [] }
        inFlight = nil
        lastFrame = now
        var delivery = Delivery(everyone: sent.everyone, since: sent.since, urgent: sent.everyone)
        if !sent.everyone {
            for viewer in sent.viewers { delivery.timed.formUnion(connections[viewer] ?? []) }
            if !sent.viewers.isEmpty || sent.host { delivery.timed.formUnion(connections[host] ?? []) }
            delivery.untimed = sent.fresh.subtracting(delivery.timed)
        }
        return [.deliver(delivery)] + produce(now: now)
    }

    /// The frame could not be built: what it owed waits for the next change.
    public mutating func frameFailed() {
        guard let lost = inFlight else { return }
        inFlight = nil
        owed.everyone = owed.everyone || lost.everyone
        owed.viewers.formUnion(lost.viewers)
        owed.host = owed.host || lost.host
        owed.fresh.formUnion(lost.fresh.filter { viewerOf[$0] != nil })
        if let since = lost.since { owed.since = min(owed.since ?? since, since) }
    }

    // MARK: - Rules

    private mutating func presenceChanged(now: ContinuousClock.Instant) -> [Action] {
        owed.host = true
        return settleSoon(now: now)
    }

    /// The frame owed to everyone (seats) or to the host (presence) goes out within
    /// `settle`, once for all the changes of that time.
    private mutating func settleSoon(now: ContinuousClock.Instant) -> [Action] {
        guard settleAt == nil else { return [] }
        let at = now + timing.settle
        settleAt = at
        return [.wake(at: at)]
    }

    /// The next frame, if one is owed and the pace allows it; otherwise when to look again.
    private mutating func produce(now: ContinuousClock.Instant) -> [Action] {
        // One frame at a time: what comes meanwhile goes into the next.
        guard inFlight == nil, !owed.isEmpty, let version = latest else { return [] }
        let pace = timing.pace + timing.pacePerWatcher * viewerOf.count
        if !owed.urgent, let lastFrame, now < lastFrame + pace {
            return [.wake(at: lastFrame + pace)]
        }
        inFlight = owed
        owed = Owed()
        return [.build(version: version)]
    }
}
