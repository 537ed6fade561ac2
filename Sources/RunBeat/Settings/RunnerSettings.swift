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
    /// True once the runner has given their heart (age, resting, maximum) themselves: until
    /// then the profile is a default (age 30, resting 60) no one's zones should follow, and the
    /// page asks before the first workout. Optional so settings stored before it read as not given.
    public var profileGiven: Bool?

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
        // A phase is at least 10 seconds (as a custom step is): a shorter warm-up is none at all or a mistake.
        for (field, seconds) in [("warmup_seconds", warmupSeconds), ("cooldown_seconds", cooldownSeconds)] where (1..<10).contains(seconds) {
            throw .unprocessable(field, "a warm-up or cool-down is none (0) or at least 10 seconds")
        }
        for choice in music.values {
            guard choice.trackIDs.count <= MusicChoice.maxTracks else {
                throw .invalid("music", "a phase's playlist holds at most \(MusicChoice.maxTracks) songs")
            }
            if choice.mode == .spotify {
                guard let playlist = choice.spotifyPlaylist, SpotifyPlaylistRef.isValid(id: playlist.id) else {
                    throw .unprocessable("spotify_playlist_id", "a phase played from Spotify needs one of your Spotify playlists")
                }
            }
        }
        return self
    }

    /// The workout a plan makes for this runner: the plan, the zones, the maximum, the rules.
    public func setup(for plan: WorkoutPlan) -> WorkoutSetup {
        WorkoutSetup(plan: plan, zones: zones, maximum: profile.maximum, rules: rules)
    }
}

/// A phase's music: Juke's pick by tempo, the runner's own songs, none, or one of the
/// runner's Spotify playlists (played on their Spotify device; Juke's pick stands in when
/// Spotify cannot be reached).
public struct MusicChoice: Sendable, Equatable, Codable {
    public enum Mode: String, Sendable, Equatable, Codable { case auto, tracks, none, spotify }
    public var mode: Mode
    public var trackIDs: [TrackID]
    public var spotifyPlaylist: SpotifyPlaylistRef?

    public static let maxTracks = 200
    public static let auto = MusicChoice(mode: .auto, trackIDs: [])

    public init(mode: Mode, trackIDs: [TrackID], spotifyPlaylist: SpotifyPlaylistRef? = nil) {
        self.mode = mode
        self.trackIDs = trackIDs
        self.spotifyPlaylist = spotifyPlaylist
    }

    /// The Spotify playlist this phase plays, if it plays one.
    public var spotifyPlaylistID: String? { mode == .spotify ? spotifyPlaylist?.id : nil }
}

/// A Spotify playlist as a phase keeps it: its id, and its name to show without asking Spotify.
public struct SpotifyPlaylistRef: Sendable, Equatable, Codable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// Spotify's ids are base-62, 22 characters; a little room either way, nothing else.
    public static func isValid(id: String) -> Bool {
        (1...64).contains(id.count) && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
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
