/// What a finished workout comes to: how long, the heart's average and peak, the time in
/// each zone, and for each timed interval with a target whether the runner hit it.
/// The time below zone 1, in zones 1 to 5, above zone 5 and with no heart rate adds up to
/// `seconds`: a summary that shows them all accounts for the whole workout.
public struct WorkoutSummary: Sendable, Equatable, Codable {
    public var seconds: Double
    public var samples: Int
    public var averageHeartRate: Int?
    public var peakHeartRate: Int?
    /// Seconds in zones 1 to 5.
    public var zoneSeconds: [Double]
    /// Seconds below zone 1.
    public var belowZonesSeconds: Double
    /// Seconds above zone 5 (over the maximum heart rate).
    public var aboveZonesSeconds: Double
    /// Seconds with no heart rate known: before the first sample, in a silence longer than
    /// `ZoneTime.maximumGap`, after the last.
    public var noHeartRateSeconds: Double
    /// Samples left out as no heart's (outside `PlausibleHeartRate.range`).
    public var droppedSamples: Int
    public var intervals: [IntervalResult]

    public var intervalsHit: Int { intervals.filter(\.hit).count }

    public init(
        seconds: Double, samples: Int, averageHeartRate: Int?, peakHeartRate: Int?, zoneSeconds: [Double], belowZonesSeconds: Double,
        aboveZonesSeconds: Double = 0, noHeartRateSeconds: Double = 0, droppedSamples: Int = 0, intervals: [IntervalResult]
    ) {
        self.seconds = seconds
        self.samples = samples
        self.averageHeartRate = averageHeartRate
        self.peakHeartRate = peakHeartRate
        self.zoneSeconds = zoneSeconds
        self.belowZonesSeconds = belowZonesSeconds
        self.aboveZonesSeconds = aboveZonesSeconds
        self.noHeartRateSeconds = noHeartRateSeconds
        self.droppedSamples = droppedSamples
        self.intervals = intervals
    }

    /// Summaries stored before the time above zone 5, with no heart rate and the samples
    /// dropped were counted read as none of them.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            seconds: try c.decode(Double.self, forKey: .seconds), samples: try c.decode(Int.self, forKey: .samples),
            averageHeartRate: try c.decodeIfPresent(Int.self, forKey: .averageHeartRate),
            peakHeartRate: try c.decodeIfPresent(Int.self, forKey: .peakHeartRate), zoneSeconds: try c.decode([Double].self, forKey: .zoneSeconds),
            belowZonesSeconds: try c.decode(Double.self, forKey: .belowZonesSeconds),
            aboveZonesSeconds: try c.decodeIfPresent(Double.self, forKey: .aboveZonesSeconds) ?? 0,
            noHeartRateSeconds: try c.decodeIfPresent(Double.self, forKey: .noHeartRateSeconds) ?? 0,
            droppedSamples: try c.decodeIfPresent(Int.self, forKey: .droppedSamples) ?? 0, intervals: try c.decode([IntervalResult].self, forKey: .intervals))
    }

    /// `samples` are (seconds into the workout, bpm) in time order; `phaseStarts` where each
    /// plan phase began; `targets` each phase's target in bpm; `grace` the seconds at a
    /// phase's start not judged (the heart's lag). Samples outside `PlausibleHeartRate.range`
    /// are left out and counted.
    public static func make(
        samples all: [(time: Double, bpm: Int)], seconds: Double, zones: HeartRateZones, plan: WorkoutPlan, targets: [ClosedRange<Int>?],
        grace: Double
    ) -> WorkoutSummary {
        let samples = all.filter { PlausibleHeartRate.contains($0.bpm) }
        let time = ZoneTime.account(samples, zones: zones, end: seconds)
        let bpm = samples.map(\.bpm)
        let average = bpm.isEmpty ? nil : Int((Double(bpm.reduce(0, +)) / Double(bpm.count)).rounded())
        var intervals: [IntervalResult] = []
        let starts = plan.phaseStarts
        for (index, phase) in plan.phases.enumerated() {
            guard let length = phase.seconds, let target = targets[index], phase.kind == .work else { continue }
            let start = starts[index]
            guard start < seconds else { break }
            let end = min(start + length, seconds)
            let judgedFrom = start + min(grace, length / 2)
            var inTarget = 0.0
            var sum = 0
            var count = 0
            for (i, sample) in samples.enumerated() where sample.time >= start && sample.time < end {
                sum += sample.bpm
                count += 1
                guard sample.time >= judgedFrom, target.contains(sample.bpm) else { continue }
                let next = i + 1 < samples.count ? min(samples[i + 1].time, end) : min(end, sample.time + 1)
                inTarget += min(max(next - sample.time, 0), ZoneTime.maximumGap)
            }
            let judged = max(end - judgedFrom, 0)
            intervals.append(
                IntervalResult(
                    phase: index, seconds: end - start, averageHeartRate: count > 0 ? Int((Double(sum) / Double(count)).rounded()) : nil,
                    low: target.lowerBound, high: target.upperBound, inTargetSeconds: inTarget,
                    hit: judged > 0 && inTarget >= judged / 2 && end - start >= length * 0.9))
        }
        return WorkoutSummary(
            seconds: seconds, samples: samples.count, averageHeartRate: average, peakHeartRate: bpm.max(), zoneSeconds: time.zones,
            belowZonesSeconds: time.below, aboveZonesSeconds: time.above, noHeartRateSeconds: time.unknown, droppedSamples: all.count - samples.count,
            intervals: intervals)
    }
}

/// One work interval judged: its heart rate, its target, and whether at least half of it
/// (after the grace at its start) was spent in the target, run to (nearly) its end.
public struct IntervalResult: Sendable, Equatable, Codable {
    public var phase: Int
    public var seconds: Double
    public var averageHeartRate: Int?
    public var low: Int
    public var high: Int
    public var inTargetSeconds: Double
    public var hit: Bool
}
