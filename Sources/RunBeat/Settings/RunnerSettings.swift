public import JukeCore

/// Everything a runner sets once: the heart-rate profile, zones of their own (or Karvonen's),
/// the cue rules, each phase's music, and the 4x4's warm-up and cool-down.
public struct RunnerSettings: Sendable, Equatable, Codable {
    public var profile: HeartRateProfile
    /// Six bounds of the runner's own zones; nil for Karvonen's.
    public var manualBounds: [Int]?
    public var rules: CueRules
    public var music: [PhaseKind: MusicChoice]
    public var warmupSeconds: Int
    public var cooldownSeconds: Int

    public static let warmupRange = 0...1800

    public init(
        profile: HeartRateProfile = HeartRateProfile(age: 30, resting: 60), manualBounds: [Int]? = nil, rules: CueRules = .standard,
        music: [PhaseKind: MusicChoice] = [:], warmupSeconds: Int = 300, cooldownSeconds: Int = 300
    ) {
        self.profile = profile
        self.manualBounds = manualBounds
        self.rules = rules
        self.music = music
        self.warmupSeconds = warmupSeconds
        self.cooldownSeconds = cooldownSeconds
    }

    /// The zones in use: the runner's own, else Karvonen's.
    public var zones: HeartRateZones {
        if let manualBounds, let zones = try? HeartRateZones(bounds: manualBounds) { return zones }
        return HeartRateZones(karvonen: profile)
    }

    public func music(for phase: PhaseKind) -> MusicChoice { music[phase] ?? .auto }

    /// Refuses a profile no person has, zones narrower than 5 bpm, rules that would storm.
    public func validated() throws(RuleRefusal) -> RunnerSettings {
        _ = try profile.validated()
        if let manualBounds { _ = try HeartRateZones(bounds: manualBounds) }
        guard rules.isValid else {
            throw .unprocessable("rules", "a cue rule is outside its range (the reminder is 0, or 20 to 600 seconds)")
        }
        guard Self.warmupRange.contains(warmupSeconds), Self.warmupRange.contains(cooldownSeconds) else {
            throw .invalid("warmup_seconds", "warm-up and cool-down are 0 to 30 minutes")
        }
        for choice in music.values where choice.trackIDs.count > MusicChoice.maxTracks {
            throw .invalid("music", "a phase's playlist holds at most \(MusicChoice.maxTracks) songs")
        }
        return self
    }

    /// The workout a plan makes for this runner: the plan, the zones, the maximum, the rules.
    public func setup(for plan: WorkoutPlan) -> WorkoutSetup {
        WorkoutSetup(plan: plan, zones: zones, maximum: profile.maximum, rules: rules)
    }
}

/// A phase's music: Juke's pick by tempo, the runner's own songs, or none.
public struct MusicChoice: Sendable, Equatable, Codable {
    public enum Mode: String, Sendable, Equatable, Codable { case auto, tracks, none }
    public var mode: Mode
    public var trackIDs: [TrackID]

    public static let maxTracks = 200
    public static let auto = MusicChoice(mode: .auto, trackIDs: [])

    public init(mode: Mode, trackIDs: [TrackID]) {
        self.mode = mode
        self.trackIDs = trackIDs
    }
}

/// What a workout runs by, fixed when it starts (a later change of zones does not move the
/// targets of a workout already run): kept with the workout, and enough to rebuild its
/// session on any server.
public struct WorkoutSetup: Sendable, Equatable, Codable {
    public var plan: WorkoutPlan
    public var zones: HeartRateZones
    public var maximum: Int
    public var rules: CueRules

    public init(plan: WorkoutPlan, zones: HeartRateZones, maximum: Int, rules: CueRules) {
        self.plan = plan
        self.zones = zones
        self.maximum = maximum
        self.rules = rules
    }

    public var targets: [ClosedRange<Int>?] { plan.phases.map { $0.target?.range(maximum: maximum, zones: zones) } }

    public func session() -> TrainingSession { TrainingSession(setup: self) }

    public func summary(samples: [(time: Double, bpm: Int)], seconds: Double) -> WorkoutSummary {
        WorkoutSummary.make(samples: samples, seconds: seconds, zones: zones, plan: plan, targets: targets, grace: rules.phaseGraceSeconds)
    }
}
