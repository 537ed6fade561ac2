/// When RunBeat speaks. Every number is a rule a runner (or a coach) can change, and each has
/// a test over a recorded trace.
public struct CueRules: Sendable, Equatable, Codable {
    /// The heart rate judged is the mean of the last `smoothingSeconds` of samples with the
    /// highest and lowest `trimFraction` of them left out (a strap's spikes and drop-outs).
    public var smoothingSeconds: Double
    public var trimFraction: Double
    /// A zone (or target) is left only when the smoothed rate is past its edge by this many
    /// bpm, so a heart at an edge does not flap between two zones.
    public var deadBand: Double
    /// A new zone must hold this long before it is announced.
    public var dwellSeconds: Double
    /// At least this long between two heart-rate announcements.
    public var cooldownSeconds: Double
    /// No heart-rate announcement this long after a phase starts: the heart lags behind the
    /// legs (about a minute to rise into a hard interval's target).
    public var phaseGraceSeconds: Double
    /// Nothing else is said this soon after any cue, so two never overlap.
    public var minimumGapSeconds: Double
    /// Samples older than this (caught up after a dropped connection) are recorded, not announced.
    public var staleSampleSeconds: Double
    /// The strap is silent when no sample came for this long.
    public var silentStrapSeconds: Double
    /// Out of an interval's target this long after the last word, the runner hears it again
    /// (0: once only). Free training's zones are said on change only.
    public var reminderSeconds: Double

    public init(
        smoothingSeconds: Double = 8, trimFraction: Double = 0.2, deadBand: Double = 3, dwellSeconds: Double = 5, cooldownSeconds: Double = 30,
        phaseGraceSeconds: Double = 45, minimumGapSeconds: Double = 4, staleSampleSeconds: Double = 10, silentStrapSeconds: Double = 10,
        reminderSeconds: Double = 60
    ) {
        self.smoothingSeconds = smoothingSeconds
        self.trimFraction = trimFraction
        self.deadBand = deadBand
        self.dwellSeconds = dwellSeconds
        self.cooldownSeconds = cooldownSeconds
        self.phaseGraceSeconds = phaseGraceSeconds
        self.minimumGapSeconds = minimumGapSeconds
        self.staleSampleSeconds = staleSampleSeconds
        self.silentStrapSeconds = silentStrapSeconds
        self.reminderSeconds = reminderSeconds
    }

    public static let standard = CueRules()

    /// Rules outside these bounds are refused (a zero cooldown is a cue storm).
    public var isValid: Bool {
        (1...30).contains(smoothingSeconds) && (0...0.4).contains(trimFraction) && (0...10).contains(deadBand) && (0...60).contains(dwellSeconds)
            && (5...600).contains(cooldownSeconds) && (0...180).contains(phaseGraceSeconds) && (1...30).contains(minimumGapSeconds)
            && (2...120).contains(staleSampleSeconds) && (3...120).contains(silentStrapSeconds)
            && (reminderSeconds == 0 || (20...600).contains(reminderSeconds))
    }
}
