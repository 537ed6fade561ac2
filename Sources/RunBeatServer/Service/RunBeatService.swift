import Crypto
import Foundation
import JukeCore
import JukePlatform
import Logging
import RunBeat
import Storage
import Workouts

/// RunBeat's requests: loads, applies the engine's rules, stores. The live part of a running
/// workout (its session, cues, phases) is `LiveTraining`'s; this finishes workouts for it.
public struct RunBeatService: Sendable {
    let store: RunBeatStore
    let library: LibraryStore
    /// Every library track, shared with the other apps: what phases' songs are picked from.
    let snapshot: LibrarySnapshot
    let clock: WallClock
    let logger: Logger
    /// Where recorded workouts are read: off the server's threads, a few at once.
    let reading: ReadingPool

    /// The most interval workouts one runner keeps.
    static let maxPlans = 100
    /// A workout silent this long is over, whatever became of its page.
    static let abandonedAfter: TimeInterval = 6 * 3600
    /// A deleted workout can be restored (Undo) this long; then it is removed for good.
    public static let undoWindow: TimeInterval = 30

    public init(store: RunBeatStore, library: LibraryStore, snapshot: LibrarySnapshot, reading: ReadingPool, clock: WallClock, logger: Logger) {
        self.reading = reading
        self.store = store
        self.library = library
        self.snapshot = snapshot
        self.clock = clock
        self.logger = logger
    }

    // MARK: Settings

    public func settings(of user: UserID) async throws -> RunnerSettings {
        try await store.settings(of: user) ?? RunnerSettings()
    }

    public func updateSettings(of user: UserID, _ change: (inout RunnerSettings) throws(RuleRefusal) -> Void) async throws -> RunnerSettings {
        var settings = try await settings(of: user)
        try change(&settings)
        settings = try settings.validated()
        try await store.save(settings, of: user, now: clock.now())
        return settings
    }

    // MARK: Plans

    /// A plan as the runner picks it: its id ("free", "vo2max_4x4" or a uuid) and phases.
    public struct NamedPlan: Sendable {
        public var id: String
        public var plan: WorkoutPlan
    }

    public func plans(of user: UserID) async throws -> [NamedPlan] {
        let settings = try await settings(of: user)
        var plans = [
            NamedPlan(id: TrainingMode.free.rawValue, plan: .free),
            NamedPlan(
                id: TrainingMode.vo2Max4x4.rawValue,
                plan: .vo2Max4x4(warmupSeconds: settings.warmupSeconds, cooldownSeconds: settings.cooldownSeconds)),
        ]
        plans += try await store.plans(of: user).map { NamedPlan(id: $0.id.description, plan: $0.plan) }
        return plans
    }

    public func createPlan(for user: UserID, name: String, steps: [WorkoutStep]) async throws -> NamedPlan {
        let plan = try WorkoutPlan.custom(name: name, steps: steps)
        guard try await store.countPlans(of: user) < Self.maxPlans else {
            throw RuleRefusal.conflict("you have \(Self.maxPlans) workouts of your own; remove one first")
        }
        let id = PlanID()
        try await store.add(plan, id: id, owner: user, now: clock.now())
        return NamedPlan(id: id.description, plan: plan)
    }

    public func deletePlan(_ id: PlanID, of user: UserID) async throws {
        guard let stored = try await store.plan(id), stored.owner == user else { throw RuleRefusal.notFound("no such workout plan") }
        try await store.deletePlan(id)
    }

    // MARK: Workouts

    /// Starts a workout; refused while another is running (the modes exclude each other),
    /// unless that one was abandoned long ago.
    public func start(for user: UserID, planID: String, classCode: String?) async throws -> RunBeatStore.StoredWorkout {
        let now = clock.now()
        if let running = try await store.running(of: user) {
            let lastHeard = running.startedAt.addingTimeInterval(running.seconds)
            guard now.timeIntervalSince(lastHeard) > Self.abandonedAfter else {
                throw RuleRefusal.conflict("a workout is running (\(running.id)); end it before starting another")
            }
            try await finish(running, status: .ended, seconds: running.seconds)
        }
        guard let plan = try await plans(of: user).first(where: { $0.id == planID.lowercased() || $0.id == planID })?.plan else {
            throw RuleRefusal.notFound("no such workout plan: \(planID)")
        }
        var code: String?
        if let classCode {
            code = classCode.uppercased()
            guard try await store.class(code ?? "") != nil else { throw RuleRefusal.notFound("no class has the code \(classCode)") }
        }
        let settings = try await settings(of: user)
        let workout = RunBeatStore.StoredWorkout(
            id: WorkoutID(), owner: user, name: plan.name, mode: plan.mode, status: .running, source: .live, startedAt: now, seconds: 0,
            setup: settings.setup(for: plan), summary: nil, classCode: code, damage: nil)
        try await store.add(workout, now: now)
        return workout
    }

    public func running(of user: UserID) async throws -> RunBeatStore.StoredWorkout {
        guard let running = try await store.running(of: user) else { throw RuleRefusal.notFound("no workout is running") }
        return running
    }

    /// A workout of `user`'s (another's is "not found", not "forbidden": it is not theirs to
    /// know of; a deleted one is gone for its owner too, until it is restored).
    public func workout(_ id: WorkoutID, of user: UserID) async throws -> RunBeatStore.StoredWorkout {
        guard let workout = try await store.workout(id), workout.owner == user, workout.deletedAt == nil else {
            throw RuleRefusal.notFound("no such workout")
        }
        return workout
    }

    public func workouts(of user: UserID, limit: Int, offset: Int) async throws -> (workouts: [RunBeatStore.StoredWorkout], total: Int) {
        try await purgeDeleted()
        return try await store.workouts(of: user, limit: limit, offset: offset)
    }

    public func samples(of workout: WorkoutID) async throws -> [RunBeatStore.Sample] { try await store.samples(of: workout) }

    /// Deletes a workout: gone from the history at once, restorable for `undoWindow`, then
    /// removed for good (with its samples) by the next purge.
    public func delete(_ id: WorkoutID, of user: UserID) async throws {
        let workout = try await workout(id, of: user)
        guard workout.status != .running else { throw RuleRefusal.conflict("the workout is running; end it first") }
        try await store.markDeleted(id, at: clock.now())
        try await purgeDeleted()
    }

    /// Undoes a delete within the undo window.
    public func restore(_ id: WorkoutID, of user: UserID) async throws -> RunBeatStore.StoredWorkout {
        guard let stored = try await store.workout(id), stored.owner == user else { throw RuleRefusal.notFound("no such workout") }
        guard stored.deletedAt != nil else { return stored }
        guard try await store.restore(id, deletedSince: clock.now().addingTimeInterval(-Self.undoWindow)) else {
            throw RuleRefusal.notFound("the workout was deleted more than \(Int(Self.undoWindow)) seconds ago; it cannot be restored")
        }
        return try await store.workout(id) ?? stored
    }

    /// Removes for good the workouts deleted longer ago than the undo window.
    public func purgeDeleted() async throws {
        try await store.purgeDeleted(before: clock.now().addingTimeInterval(-Self.undoWindow))
    }

    /// Stores samples sent after a dropped connection; returns the contiguous seq stored.
    public func store(samples: [RunBeatStore.Sample], in workout: RunBeatStore.StoredWorkout) async throws -> Int64 {
        guard workout.status == .running else { throw RuleRefusal.conflict("the workout is over; it takes no more samples") }
        try await store.insert(samples.map { (workout.id, $0) })
        if let last = samples.map(\.time).max() { try await store.updateSeconds(workout.id, seconds: last) }
        return try await store.contiguousSeq(of: workout.id)
    }

    /// Finishes a workout: the summary from every stored sample. Done once; a second call
    /// (the other server, a retry) finds it finished and leaves it.
    @discardableResult
    public func finish(_ workout: RunBeatStore.StoredWorkout, status: RunBeatStore.Status, seconds: Double) async throws -> RunBeatStore.StoredWorkout {
        let samples = try await store.samples(of: workout.id)
        let length = max(seconds, samples.last?.time ?? 0)
        let summary = workout.setup.summary(samples: samples.map { ($0.time, $0.bpm) }, seconds: length)
        _ = try await store.finish(workout.id, status: status, seconds: length, summary: summary)
        return try await store.workout(workout.id) ?? workout
    }

    // MARK: Files

    public func recording(_ bytes: [UInt8]) async throws -> RecordedWorkout {
        let recorded: RecordedWorkout
        do {
            recorded = try await reading.read { try WorkoutFile.read(bytes) }
        } catch let error as WorkoutFileError {
            throw RuleRefusal.unprocessable("file", error.description)
        }
        guard !recorded.samples.isEmpty else { throw RuleRefusal.unprocessable("file", "the file holds no heart-rate samples") }
        return recorded
    }

    /// A recorded workout into the history, judged against the runner's zones today, with
    /// whether it was there already: the same file (its bytes' SHA-256) imported again is the
    /// workout it made the first time, not a copy. Heart rates outside
    /// `PlausibleHeartRate.range` are left out, as live samples are, and the summary counts them.
    public func importWorkout(_ bytes: [UInt8], filename: String, for user: UserID) async throws -> (
        workout: RunBeatStore.StoredWorkout, existing: Bool
    ) {
        let hash = Hex.string(SHA256.hash(data: bytes))
        if let existing = try await store.imported(by: user, fileSHA256: hash) { return (existing, true) }
        let recorded = try await recording(bytes)
        let start = recorded.origin ?? clock.now()
        let settings = try await settings(of: user)
        let name = (filename as NSString).deletingPathExtension.trimmingCharacters(in: .whitespacesAndNewlines)
        let plan = WorkoutPlan(mode: .free, name: name.isEmpty ? "Imported workout" : String(name.prefix(80)), phases: WorkoutPlan.free.phases)
        let setup = settings.setup(for: plan)
        let read = recorded.offsets().map { (time: max(0, $0.time), bpm: $0.bpm) }
        let seconds = max(recorded.duration, read.last?.time ?? 0)
        // The summary sees every sample read, to count the ones it leaves out; only the
        // plausible ones are kept for the chart and exports.
        let summary = setup.summary(samples: read, seconds: seconds)
        let samples = read.filter { PlausibleHeartRate.contains($0.bpm) }.enumerated().map {
            RunBeatStore.Sample(seq: Int64($0.offset), time: $0.element.time, bpm: $0.element.bpm)
        }
        let workout = RunBeatStore.StoredWorkout(
            id: WorkoutID(), owner: user, name: plan.name, mode: .free, status: .ended, source: .import, startedAt: start, seconds: seconds, setup: setup,
            summary: summary, classCode: nil, damage: recorded.damage, fileSHA256: hash)
        try await store.add(workout, now: clock.now())
        try await store.insert(samples.map { (workout.id, $0) })
        return (try await store.workout(workout.id) ?? workout, false)
    }

    /// A workout as a FIT, TCX or GPX file: its samples, a lap per phase.
    public func export(_ workout: RunBeatStore.StoredWorkout) async throws -> RecordedWorkout {
        let samples = try await store.samples(of: workout.id)
        let start = workout.startedAt
        var laps: [WorkoutLap] = []
        let starts = workout.setup.plan.phaseStarts
        for (index, phase) in workout.setup.plan.phases.enumerated() where starts[index] < workout.seconds {
            let end = min(starts[index] + (phase.seconds ?? workout.seconds), workout.seconds)
            let intensity: LapIntensity =
                switch phase.kind {
                case .warmup: .warmup
                case .cooldown: .cooldown
                case .recovery: .rest
                case .work, .free: .active
                }
            laps.append(WorkoutLap(start: start.addingTimeInterval(starts[index]), duration: end - starts[index], intensity: intensity))
        }
        return RecordedWorkout(
            format: .fit, sport: "running", start: start, duration: workout.seconds,
            samples: samples.map { HeartRateSample(time: start.addingTimeInterval($0.time), bpm: $0.bpm) }, laps: laps)
    }

    // MARK: Music

    /// A phase's songs: the runner's own, or picked by tempo from the library (work: the
    /// fastest third, recovery: the calmest, warm-up and cool-down: the middle); a library
    /// with no tempo at all gives its songs in a shuffled order.
    /// A phase played from Spotify lists Juke's pick too: what the page plays when Spotify cannot.
    public func music(for phase: PhaseKind, of user: UserID, limit: Int) async throws -> (choice: MusicChoice, tracks: [Track]) {
        let choice = try await settings(of: user).music(for: phase)
        return (choice, try await tracks(for: choice, in: phase, limit: limit))
    }

    private func tracks(for choice: MusicChoice, in phase: PhaseKind, limit: Int) async throws -> [Track] {
        switch choice.mode {
        case .none:
            return []
        case .tracks:
            var tracks: [Track] = []
            for id in choice.trackIDs.prefix(limit) {
                if let track = try await library.track(id: id) { tracks.append(track) }
            }
            return tracks
        case .auto, .spotify:
            return Self.pick(try await snapshot.tracks(), for: phase, limit: limit)
        }
    }

    static func pick(_ tracks: [Track], for phase: PhaseKind, limit: Int) -> [Track] {
        let timed = tracks.filter { ($0.bpm ?? 0) > 0 }.sorted { ($0.bpm ?? 0, $0.title) < ($1.bpm ?? 0, $1.title) }
        guard timed.count >= 3 else {
            var generator = SplitMix64(seed: 20_261_126)
            return Array(tracks.shuffled(using: &generator).prefix(limit))
        }
        let third = timed.count / 3
        let chosen: ArraySlice<Track> =
            switch phase {
            case .work: timed[(timed.count - third)...]
            case .recovery: timed[..<third]
            case .warmup, .cooldown, .free: timed[third..<(timed.count - third)]
            }
        var generator = SplitMix64(seed: UInt64(chosen.count) &* 7919)
        return Array(Array(chosen).shuffled(using: &generator).prefix(limit))
    }

    // MARK: Classes

    static let codeAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    public func createClass(named name: String, coach: UserID) async throws -> RunBeatStore.StoredClass {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 80 else { throw RuleRefusal.invalid("name", "a class needs a name of 1 to 80 characters") }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10 {
            let code = String((0..<6).map { _ in Self.codeAlphabet[Int.random(in: 0..<Self.codeAlphabet.count, using: &generator)] })
            guard try await store.class(code) == nil else { continue }
            let stored = RunBeatStore.StoredClass(code: code, coach: coach, name: trimmed, createdAt: clock.now())
            try await store.add(stored)
            return stored
        }
        throw RuleRefusal.conflict("no free class code was found; try again")
    }

    public func `class`(_ code: String, coach: UserID) async throws -> RunBeatStore.StoredClass {
        guard let stored = try await store.class(code.uppercased()) else { throw RuleRefusal.notFound("no class has the code \(code)") }
        guard stored.coach == coach else { throw RuleRefusal.forbidden("only the class's coach follows its runners") }
        return stored
    }
}
