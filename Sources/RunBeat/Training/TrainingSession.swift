/// One workout as it runs: heart-rate samples and clock ticks in, cues and phase changes out.
///
/// Time is the workout's own, in seconds since it started, as the runner's page measures it
/// (its monotonic clock): the phases follow it whether or not the server hears every tick,
/// and a backlog sent after a dropped connection lands where it was recorded. The session
/// keeps no samples (the store does); it keeps what it needs to decide what to say.
public struct TrainingSession: Sendable, Equatable {
    public let plan: WorkoutPlan
    public let zones: HeartRateZones
    public let maximum: Int
    public let rules: CueRules
    /// Each phase's target in bpm, resolved once for this runner.
    public let targets: [ClosedRange<Int>?]

    public private(set) var status: Status = .ready
    public private(set) var phaseIndex = 0
    /// The latest workout time heard, from a sample or a tick.
    public private(set) var latest = 0.0
    /// The heart rate judged now: nil before the first sample and while the strap is silent
    /// (a number from before the silence is no one's heart rate now).
    public private(set) var smoothed: Double?
    public private(set) var strapSilent = false

    private var smoother: HeartRateSmoother
    private var lastSampleTime: Double?
    /// The state judged now (with the dead band), the one last said, and since when the
    /// judged one has held.
    private var judged: Judged?
    private var announced: Judged?
    private var judgedSince = 0.0
    private var lastHeartCue = -Double.infinity
    private var lastCue = -Double.infinity
    private var graceUntil = 0.0

    public enum Status: Sendable, Equatable {
        case ready, running
        case finished(FinishReason)
    }

    enum Judged: Sendable, Equatable {
        case zone(Int)
        case target(TargetState)
    }

    public init(plan: WorkoutPlan, profile: HeartRateProfile, zones: HeartRateZones? = nil, rules: CueRules = .standard) {
        self.init(setup: WorkoutSetup(plan: plan, zones: zones ?? HeartRateZones(karvonen: profile), maximum: profile.maximum, rules: rules))
    }

    public init(setup: WorkoutSetup) {
        self.plan = setup.plan
        self.maximum = setup.maximum
        self.zones = setup.zones
        self.rules = setup.rules
        self.targets = setup.targets
        self.smoother = HeartRateSmoother(windowSeconds: rules.smoothingSeconds, trimFraction: rules.trimFraction)
    }

    public var isRunning: Bool { status == .running }
    /// The zone of the heart rate judged now (nil while there is none: see `smoothed`).
    public var currentZone: Int? { smoothed.map { zones.zone(of: $0) } }
    public var phase: PlanPhase? { plan.phases.indices.contains(phaseIndex) ? plan.phases[phaseIndex] : nil }

    public mutating func handle(_ event: TrainingEvent) -> [TrainingAction] {
        switch event {
        case .start:
            guard status == .ready else { return [] }
            status = .running
            graceUntil = rules.phaseGraceSeconds
            return [.phaseChanged(index: 0), say(phaseCue(0), at: 0)]
        case .sample(let t, let bpm):
            guard status == .running, t.isFinite, t >= 0 else { return [] }
            let actions = advance(to: t)
            guard status == .running else { return actions }
            return actions + sample(at: t, bpm: bpm)
        case .tick(let t):
            guard status == .running, t.isFinite, t >= 0 else { return [] }
            var actions = advance(to: t)
            guard status == .running else { return actions }
            latest = max(latest, t)
            if !strapSilent, latest - (lastSampleTime ?? 0) >= rules.silentStrapSeconds {
                strapSilent = true
                // What was judged before the silence is forgotten: the heart is judged afresh
                // from the samples after it, so no zone is said from a stale value.
                smoothed = nil
                smoother.reset()
                judged = nil
                actions.append(.strap(live: false))
                if latest - lastCue >= rules.minimumGapSeconds { actions.append(say(.strapSilent, at: latest)) }
            }
            return actions
        case .end(let t):
            guard status == .running || status == .ready else { return [] }
            latest = max(latest, t.isFinite ? t : latest)
            status = .finished(.ended)
            return [.finished(.ended), .cue(.finished)]
        }
    }

    /// Moves to the phase running at `t`. Phases passed while the server heard nothing are
    /// stepped through, and only a phase that began moments ago is announced.
    private mutating func advance(to t: Double) -> [TrainingAction] {
        let index = plan.phaseIndex(at: t)
        guard index != phaseIndex else { return [] }
        guard index > phaseIndex else { return [] }  // a late sample from an earlier phase
        latest = max(latest, t)
        if index >= plan.phases.count {
            status = .finished(.completed)
            phaseIndex = plan.phases.count
            return [.finished(.completed), say(.finished, at: t)]
        }
        phaseIndex = index
        let start = plan.phaseStarts[index]
        graceUntil = start + rules.phaseGraceSeconds
        judged = nil
        announced = nil
        var actions: [TrainingAction] = [.phaseChanged(index: index)]
        if t - start <= rules.staleSampleSeconds { actions.append(say(phaseCue(index), at: t)) }
        return actions
    }

    private mutating func sample(at t: Double, bpm: Int) -> [TrainingAction] {
        var actions: [TrainingAction] = []
        // A backlog after a dropped connection comes in order; a sample older than the last
        // one judged is kept by the store but cannot move the smoothing backwards.
        if let last = lastSampleTime, t < last { return [] }
        lastSampleTime = t
        let fresh = t >= latest - rules.staleSampleSeconds
        let value = smoother.add(time: t, bpm: Double(bpm))
        // A backlog from before now does not end a silence: only a sample of now does.
        if strapSilent && fresh {
            strapSilent = false
            actions.append(.strap(live: true))
            if t - lastCue >= rules.minimumGapSeconds { actions.append(say(.strapBack, at: t)) }
        }
        if !strapSilent { smoothed = value }
        latest = max(latest, t)
        guard let phase else { return actions }
        let now: Judged?
        if let target = targets[phaseIndex] {
            now = .target(targetState(value, target))
        } else if phase.kind == .free {
            now = .zone(zone(value))
        } else {
            now = nil
        }
        guard let now else { return actions }
        if now != judged {
            judged = now
            judgedSince = t
        }
        guard fresh, t >= graceUntil, t - judgedSince >= rules.dwellSeconds, t - lastCue >= rules.minimumGapSeconds else { return actions }
        let changed = now != announced && t - lastHeartCue >= rules.cooldownSeconds
        var reminder = false
        if case .target(let state) = now, state != .inRange, now == announced, rules.reminderSeconds > 0 {
            reminder = t - lastHeartCue >= rules.reminderSeconds
        }
        guard changed || reminder else { return actions }
        announced = now
        lastHeartCue = t
        let rounded = Int(value.rounded())
        switch now {
        case .zone(let z):
            actions.append(say(.zone(zone: z, bpm: rounded), at: t))
        case .target(let state):
            let range = targets[phaseIndex] ?? 0...0
            actions.append(say(.target(state, bpm: rounded, low: range.lowerBound, high: range.upperBound), at: t))
        }
        return actions
    }

    private mutating func say(_ cue: Cue, at t: Double) -> TrainingAction {
        lastCue = t
        return .cue(cue)
    }

    private func phaseCue(_ index: Int) -> Cue {
        let phase = plan.phases[index]
        let interval = plan.intervalNumber(of: index)
        return .phase(kind: phase.kind, seconds: phase.seconds, interval: interval?.number, of: interval?.of)
    }

    /// The zone, staying in the judged one while within its bounds widened by the dead band.
    private func zone(_ bpm: Double) -> Int {
        if case .zone(let current) = judged {
            let low = current == 0 ? -Double.infinity : Double(zones.bounds[current - 1]) - rules.deadBand
            let high = current == 5 ? Double.infinity : Double(zones.bounds[current]) + rules.deadBand
            if bpm >= low && bpm < high { return current }
        }
        return zones.zone(of: bpm)
    }

    private func targetState(_ bpm: Double, _ range: ClosedRange<Int>) -> TargetState {
        let low = Double(range.lowerBound)
        let high = Double(range.upperBound)
        if case .target(let current) = judged {
            switch current {
            case .inRange where bpm >= low - rules.deadBand && bpm <= high + rules.deadBand: return .inRange
            case .below where bpm < low + rules.deadBand: return .below
            case .above where bpm > high - rules.deadBand: return .above
            default: break
            }
        }
        if bpm < low { return .below }
        if bpm > high { return .above }
        return .inRange
    }
}

public enum TrainingEvent: Sendable, Equatable {
    case start
    /// A heart-rate sample `elapsed` seconds into the workout.
    case sample(elapsed: Double, bpm: Int)
    /// The runner's clock, when no sample says it (a silent strap).
    case tick(elapsed: Double)
    /// The one way to end a workout early.
    case end(elapsed: Double)
}

public enum TrainingAction: Sendable, Equatable {
    case cue(Cue)
    case phaseChanged(index: Int)
    case strap(live: Bool)
    case finished(FinishReason)
}

public enum FinishReason: String, Sendable, Equatable, Codable {
    /// The plan ran to its end.
    case completed
    /// The runner ended it.
    case ended
}
