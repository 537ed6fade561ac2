import Foundation
import JukeCore
import JukePlatform
import LiveUpdates
import Logging
import RunBeat

/// The running workouts on this server: each one's training session (the engine), the
/// runner's page connected to it, what of its samples is stored, and the coaches watching
/// its class. Samples in, the engine's cues and phases out at once; samples to the store in
/// batches, and an acknowledgement to the page once they are there, so a page that loses its
/// connection knows what to send again.
///
/// A workout's session lives on the server its page is connected to. A page that comes back
/// on another server (or after a restart) gets its session rebuilt there from the stored
/// samples: the engine replays them without a word.
actor LiveTraining {
    let service: RunBeatService
    let store: RunBeatStore
    let writer: SampleWriter
    let relay: Relay
    let clock: WallClock
    let logger: Logger
    /// Spotify's music for the phases, when the server offers Spotify.
    let spotify: SpotifyPlayback?

    struct Active {
        var workout: RunBeatStore.StoredWorkout
        var session: TrainingSession
        var runner: String
        /// Every seq up to this one is stored.
        var acked: Int64
        /// Seqs stored beyond `acked` (out of order), and seqs received beyond `received`.
        var storedAhead: Set<Int64> = []
        var received: Int64
        var receivedAhead: Set<Int64> = []
        var outbox: AsyncStream<String>.Continuation?
        var connection: UUID?
        /// The page recording (its own id, sent on connecting): the same page coming back
        /// replaces its old connection; another page (a second tab) watches.
        var page: String?
        /// Pages watching the run (a second tab, another device of the runner's): they hear
        /// what the recording page hears, and the heart rate, and send nothing that counts.
        var viewers: [UUID: AsyncStream<String>.Continuation] = [:]
        var bpm: Int?
        /// When the server last heard a heart-rate sample (its clock): a coach sees how long ago.
        var lastSampleAt: Date?
        var lastSecondsSaved = 0.0
        var finishing = false
        /// What the session said before any page was connected (a new workout's first phase).
        var unsaid: [String] = []
        /// When its page last said anything (a workout nobody streams to is let go of).
        var lastHeard = Date.distantPast
    }

    private var active: [WorkoutID: Active] = [:]
    private var watchers: [String: [UUID: AsyncStream<String>.Continuation]] = [:]
    /// Runners of classes followed here whose workouts run on other servers.
    private var remote: [String: [String: RunnerState]] = [:]
    private var changedClasses: Set<String> = []
    private var classNames: [String: String] = [:]

    /// Where a finished workout is stored and summed up, after its last message has been answered.
    let background: BackgroundWork

    init(
        service: RunBeatService, store: RunBeatStore, relay: Relay, clock: WallClock, background: BackgroundWork, logger: Logger,
        spotify: SpotifyPlayback? = nil
    ) {
        self.background = background
        self.spotify = spotify
        self.service = service
        self.store = store
        self.writer = SampleWriter(store: store, logger: logger)
        self.relay = relay
        self.clock = clock
        self.logger = logger
    }

    // MARK: The runner's connection

    /// Connects a runner's page to their workout: the hello (what is stored, where the
    /// workout is, and whether this page records or watches) and the stream of what the server
    /// says. The page already recording, coming back (a dropped connection), replaces its old
    /// connection; any other page while one records (a second tab) watches the same run, so
    /// that two tabs never take the run from each other.
    func connect(_ id: WorkoutID, user: UserID, runner: String, page: String? = nil) async throws -> (
        connection: UUID, hello: String, messages: AsyncStream<String>
    ) {
        var entry = try await load(id, user: user, runner: runner)
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(512))
        let connection = UUID()
        if entry.outbox != nil, let page, page != entry.page {
            entry.viewers[connection] = continuation
            active[id] = entry
            let status = entry.workout.status.rawValue
            return (connection, LiveMessage.hello(acked: entry.acked, session: entry.session, status: status, role: "viewer"), stream)
        }
        entry.outbox?.finish()
        entry.outbox = continuation
        entry.connection = connection
        entry.page = page
        for message in entry.unsaid { continuation.yield(message) }
        entry.unsaid = []
        active[id] = entry
        if entry.workout.status == .running {
            spotify?.send(.training(entry.workout.owner, id, phase: entry.session.phase?.kind, listener: { continuation.yield($0) }))
        }
        let status = entry.workout.status.rawValue
        return (connection, LiveMessage.hello(acked: entry.acked, session: entry.session, status: status, role: "recorder"), stream)
    }

    func disconnect(_ id: WorkoutID, connection: UUID) {
        if let viewer = active[id]?.viewers.removeValue(forKey: connection) {
            viewer.finish()
            return
        }
        guard var entry = active[id], entry.connection == connection else { return }
        spotify?.send(.pageGone(entry.workout.owner, id))
        entry.outbox?.finish()
        entry.outbox = nil
        entry.connection = nil
        active[id] = entry
    }

    /// The workout's session here, rebuilt from the store when this server has none.
    private func load(_ id: WorkoutID, user: UserID, runner: String) async throws -> Active {
        if let entry = active[id] {
            guard entry.workout.owner == user else { throw RuleRefusal.notFound("no such workout") }
            return entry
        }
        let workout = try await service.workout(id, of: user)
        var session = workout.setup.session()
        let start = session.handle(.start)
        let samples = try await store.samples(of: id)
        for sample in samples { _ = session.handle(.sample(elapsed: sample.time, bpm: sample.bpm)) }
        let acked = try await store.contiguousSeq(of: id)
        var entry = Active(workout: workout, session: session, runner: runner, acked: acked, received: acked)
        // A workout just started: its first phase is said when its page connects.
        if samples.isEmpty && workout.status == .running { entry.unsaid = start.compactMap { LiveMessage.action($0, at: 0) } }
        entry.bpm = samples.last?.bpm
        entry.lastSampleAt = samples.last.map { workout.startedAt.addingTimeInterval($0.time) }
        entry.lastSecondsSaved = workout.seconds
        entry.lastHeard = clock.now()
        if let existing = active[id] { return existing }  // another connection loaded it meanwhile
        active[id] = entry
        if workout.status == .running, case .finished(let reason) = session.status {
            // The plan ran out while nobody was connected here.
            finish(id, reason: reason, at: session.latest)
        }
        return entry
    }

    /// One message from the runner's page (a watching page's are answered only to a ping).
    func receive(_ id: WorkoutID, connection: UUID? = nil, text: String) {
        guard var entry = active[id] else { return }
        if let connection, let viewer = entry.viewers[connection] {
            if let message = try? JSONDecoder().decode(RunnerMessage.self, from: Data(text.utf8)), message.type == "ping" {
                viewer.yield(LiveMessage.pong(message.t))
            }
            return
        }
        entry.lastHeard = clock.now()
        guard let message = try? JSONDecoder().decode(RunnerMessage.self, from: Data(text.utf8)) else {
            entry.outbox?.yield(LiveMessage.error("a message Juke cannot read"))
            return
        }
        switch message.type {
        case "samples":
            let samples = message.samples ?? []
            guard samples.count <= RunnerMessage.maxSamples else {
                entry.outbox?.yield(LiveMessage.error("at most \(RunnerMessage.maxSamples) samples a message"))
                return
            }
            // The page's clock now, before the samples: a backlog is then recognised as old.
            if let now = message.t { say(session(of: &entry, .tick(elapsed: now), at: now), in: &entry) }
            accept(samples, into: &entry)
        case "tick":
            guard let t = message.t, t.isFinite, t >= 0, t <= 172_800 else { return }
            say(session(of: &entry, .tick(elapsed: t), at: t), in: &entry)
        case "ping":
            // Answered at once: the page's (and the load test's) measure of the connection alone.
            entry.outbox?.yield(LiveMessage.pong(message.t))
        case "pause", "resume":
            // The page's clock, cues and own music stop by themselves; Spotify plays from the
            // server, so it is told here.
            if entry.workout.status == .running, !entry.finishing {
                spotify?.send(.paused(entry.workout.owner, entry.workout.id, message.type == "pause"))
            }
        case "end":
            let t = message.t.flatMap { $0.isFinite ? min(max($0, 0), 172_800) : nil } ?? entry.session.latest
            say(ending(&entry, at: t), in: &entry)
        default:
            entry.outbox?.yield(LiveMessage.error("unknown message type \(message.type)"))
        }
        active[id] = entry
        if case .finished(let reason) = entry.session.status, !entry.finishing {
            finish(id, reason: reason, at: entry.session.latest)
        }
    }

    /// Samples sent over HTTP after a dropped connection (already stored by the service):
    /// the session hears them quietly, as a backlog.
    func heard(_ samples: [RunBeatStore.Sample], in id: WorkoutID) {
        guard var entry = active[id] else { return }
        for sample in samples.sorted(by: { $0.seq < $1.seq }) where !seen(sample.seq, in: entry) {
            markReceived(sample.seq, in: &entry)
            markStored(sample.seq, in: &entry)
            // Stored as sent (the summary leaves it out), but no heart's rate is not heard.
            guard PlausibleHeartRate.contains(sample.bpm) else { continue }
            entry.lastSampleAt = clock.now()
            say(session(of: &entry, .sample(elapsed: sample.time, bpm: sample.bpm), at: sample.time), in: &entry)
        }
        active[id] = entry
    }

    /// Ends a workout (the HTTP route's way, when the page's connection is elsewhere or gone).
    func end(_ id: WorkoutID, user: UserID, runner: String, at elapsed: Double) async throws -> RunBeatStore.StoredWorkout {
        var entry = try await load(id, user: user, runner: runner)
        if entry.workout.status == .running && !entry.finishing {
            say(ending(&entry, at: elapsed), in: &entry)
            active[id] = entry
            let reason: FinishReason = if case .finished(let reason) = entry.session.status { reason } else { .ended }
            finish(id, reason: reason, at: max(elapsed, entry.session.latest))
        }
        while active[id]?.finishing == true { try await Task.sleep(for: .milliseconds(20)) }
        return try await service.workout(id, of: user)
    }

    /// The runner ends the workout at `t`: a timed plan that ran to its end by then is
    /// completed (the page may have been offline when it did), any other is ended early.
    private func ending(_ entry: inout Active, at t: Double) -> [(TrainingAction, Double)] {
        let tick = session(of: &entry, .tick(elapsed: t), at: t)
        guard entry.session.status == .running else { return tick }
        return tick + session(of: &entry, .end(elapsed: t), at: t)
    }

    private func seen(_ seq: Int64, in entry: Active) -> Bool { seq <= entry.received || entry.receivedAhead.contains(seq) }

    private func markReceived(_ seq: Int64, in entry: inout Active) {
        entry.receivedAhead.insert(seq)
        while entry.receivedAhead.remove(entry.received + 1) != nil { entry.received += 1 }
    }

    private func markStored(_ seq: Int64, in entry: inout Active) {
        guard seq > entry.acked else { return }
        entry.storedAhead.insert(seq)
        while entry.storedAhead.remove(entry.acked + 1) != nil { entry.acked += 1 }
    }

    private func accept(_ samples: [RunnerMessage.IncomingSample], into entry: inout Active) {
        guard entry.workout.status == .running, !entry.finishing else { return }
        var toStore: [RunBeatStore.Sample] = []
        for sample in samples.sorted(by: { $0.seq < $1.seq }) {
            guard sample.seq >= 0, sample.seq <= 1_000_000, sample.t.isFinite, sample.t >= 0, sample.t <= 172_800, !seen(sample.seq, in: entry) else {
                continue
            }
            var bpm = sample.bpm
            if let hex = sample.m {
                guard let bytes = [UInt8](hex: hex), let measurement = try? HeartRateMeasurement.parse(bytes), measurement.isUsable,
                    PlausibleHeartRate.contains(measurement.bpm)
                else {
                    markReceived(sample.seq, in: &entry)
                    markStored(sample.seq, in: &entry)  // nothing to store: a strap without skin contact
                    continue
                }
                bpm = measurement.bpm
            }
            guard let bpm, PlausibleHeartRate.contains(bpm) else {
                // No heart's rate (a spike, a strap's "no reading"): taken and left out, as an
                // imported file's are, so the page does not send it again.
                markReceived(sample.seq, in: &entry)
                markStored(sample.seq, in: &entry)
                continue
            }
            markReceived(sample.seq, in: &entry)
            entry.bpm = bpm
            entry.lastSampleAt = clock.now()
            if !entry.viewers.isEmpty {
                let heart = LiveMessage.heart(bpm: bpm, at: sample.t)
                for viewer in entry.viewers.values { viewer.yield(heart) }
            }
            toStore.append(RunBeatStore.Sample(seq: sample.seq, time: sample.t, bpm: bpm))
            say(session(of: &entry, .sample(elapsed: sample.t, bpm: bpm), at: sample.t), in: &entry)
        }
        guard !toStore.isEmpty else {
            entry.outbox?.yield(LiveMessage.ack(entry.acked))
            return
        }
        let id = entry.workout.id
        let latest = entry.session.latest
        let saveSeconds = latest - entry.lastSecondsSaved >= 10
        if saveSeconds { entry.lastSecondsSaved = latest }
        writer.add(toStore, of: id)
        if saveSeconds { writer.ran(id, seconds: latest) }
        if entry.workout.classCode != nil { changedClasses.insert(entry.workout.classCode ?? "") }
    }

    private func session(of entry: inout Active, _ event: TrainingEvent, at t: Double) -> [(TrainingAction, Double)] {
        entry.session.handle(event).map { ($0, t) }
    }

    private func say(_ actions: [(TrainingAction, Double)], in entry: inout Active) {
        for (action, t) in actions {
            if let text = LiveMessage.action(action, at: t) {
                entry.outbox?.yield(text)
                for viewer in entry.viewers.values { viewer.yield(text) }
            }
        }
        // The phase's Spotify playlist follows the phase the session is in after these.
        if actions.contains(where: { if case .phaseChanged = $0.0 { true } else { false } }) {
            spotify?.send(.phase(entry.workout.owner, entry.workout.id, entry.session.phase?.kind))
        }
        if !actions.isEmpty, let code = entry.workout.classCode { changedClasses.insert(code) }
    }

    /// Stores the workout's last samples and its summary, then tells the page.
    private func finish(_ id: WorkoutID, reason: FinishReason, at elapsed: Double) {
        guard var entry = active[id], !entry.finishing else { return }
        entry.finishing = true
        active[id] = entry
        let workout = entry.workout
        background.start("RunBeat workout finish") { await self.storeFinished(id, workout, reason: reason, at: elapsed) }
    }

    private func storeFinished(_ id: WorkoutID, _ workout: RunBeatStore.StoredWorkout, reason: FinishReason, at elapsed: Double) async {
        stored(await writer.flush())
        do {
            let done = try await service.finish(workout, status: reason == .completed ? .completed : .ended, seconds: elapsed)
            finished(id, workout: done, reason: reason)
        } catch {
            logger.error("runbeat workout not finished", metadata: ["workout": "\(id)", "error": "\(error)"])
            active[id]?.finishing = false
        }
    }

    private func finished(_ id: WorkoutID, workout: RunBeatStore.StoredWorkout, reason: FinishReason) {
        guard var entry = active[id] else { return }
        entry.workout = workout
        entry.finishing = false
        let done = LiveMessage.finished(reason, workout: id.description)
        entry.outbox?.yield(done)
        for viewer in entry.viewers.values { viewer.yield(done) }
        spotify?.send(.finished(entry.workout.owner, id))
        if let code = workout.classCode { changedClasses.insert(code) }
        active[id] = entry
    }

    // MARK: Batches stored

    /// Writes the pending samples and acknowledges them to their pages.
    func flush() async {
        stored(await writer.flush())
    }

    private func stored(_ seqs: [WorkoutID: [Int64]]) {
        for (id, list) in seqs {
            guard var entry = active[id] else { continue }
            let before = entry.acked
            for seq in list { markStored(seq, in: &entry) }
            if entry.acked != before { entry.outbox?.yield(LiveMessage.ack(entry.acked)) }
            active[id] = entry
        }
    }

    /// Lets go of finished workouts nobody is connected to, and of running ones whose page has
    /// been gone for an hour (their session is rebuilt from the store if it comes back).
    func sweep() {
        let now = clock.now()
        for (id, entry) in active where entry.outbox == nil && !entry.finishing {
            if entry.workout.status != .running || now.timeIntervalSince(entry.lastHeard) > Self.forgetAfter { active[id] = nil }
        }
    }

    static let forgetAfter: TimeInterval = 3600

    // MARK: Coaches

    func watch(_ code: String, name: String) -> (id: UUID, messages: AsyncStream<String>) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        watchers[code, default: [:]][id] = continuation
        classNames[code] = name
        changedClasses.insert(code)
        return (id, stream)
    }

    func unwatch(_ code: String, id: UUID) {
        watchers[code]?[id]?.finish()
        watchers[code]?[id] = nil
        if watchers[code]?.isEmpty == true {
            watchers[code] = nil
            remote[code] = nil
        }
    }

    /// The runners of a class: those running here, and those other servers told of.
    func runners(in code: String) -> [RunnerState] {
        var states = remote[code] ?? [:]
        for entry in active.values where entry.workout.classCode == code {
            states[entry.workout.id.description] = state(of: entry)
        }
        let now = clock.now()
        return states.values.map { $0.aged(at: now) }.sorted { ($0.runner, $0.workoutID) < ($1.runner, $1.workoutID) }
    }

    private func state(of entry: Active) -> RunnerState {
        // A silent strap's last number is not shown as the runner's heart rate now.
        let silent = entry.session.strapSilent
        return RunnerState(
            workoutID: entry.workout.id.description, runner: entry.runner, bpm: silent ? nil : entry.bpm, zone: entry.session.currentZone,
            phase: entry.session.phaseIndex,
            phaseKind: entry.session.phase?.kind.rawValue ?? "done", elapsed: entry.session.latest,
            status: entry.workout.status.rawValue, strapLive: !entry.session.strapSilent,
            updatedAt: Int64((clock.now().timeIntervalSince1970 * 1000).rounded()),
            lastSampleAt: entry.lastSampleAt.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) })
    }

    /// A runner's state from another server.
    func remoteState(_ state: RunnerState, in code: String) {
        guard watchers[code] != nil else { return }
        remote[code, default: [:]][state.workoutID] = state
        changedClasses.insert(code)
    }

    /// Once a second: each changed class's runners to its coaches here, and to the other
    /// servers (a coach may be watching there).
    func pushClasses() async {
        let changed = changedClasses
        changedClasses.removeAll()
        for code in changed {
            let runners = runners(in: code)
            if let list = watchers[code], !list.isEmpty {
                let frame = LiveMessage.classState(code: code, name: classNames[code] ?? code, runners: runners)
                for continuation in list.values { continuation.yield(frame) }
            }
            let encoder = JSONEncoder()
            for entry in active.values where entry.workout.classCode == code {
                if let data = try? encoder.encode(state(of: entry)) { await relay.send(code, String(decoding: data, as: UTF8.self)) }
            }
        }
    }
}
