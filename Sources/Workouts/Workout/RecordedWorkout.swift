public import Foundation

/// A workout as a file records it: when it started, how long it took, its heart-rate samples
/// and its laps, whatever the format (FIT, TCX or GPX) it came in.
public struct RecordedWorkout: Sendable, Equatable {
    public var format: WorkoutFormat
    /// The sport as the file names it ("running", "cycling"), if it does.
    public var sport: String?
    public var start: Date?
    /// Seconds from start to end (the session's elapsed time where the file has one).
    public var duration: Double
    /// Every heart-rate sample, in time order.
    public var samples: [HeartRateSample]
    public var laps: [WorkoutLap]
    /// Where the runner was, in time order (none for a run recorded without a position: a
    /// treadmill, a class, a page that records heart rate only).
    public var positions: [TrackPosition]
    /// Why the file was read only in part (cut short, a checksum that does not match), if it was.
    public var damage: String?

    public init(
        format: WorkoutFormat, sport: String? = nil, start: Date?, duration: Double, samples: [HeartRateSample], laps: [WorkoutLap] = [],
        positions: [TrackPosition] = [], damage: String? = nil
    ) {
        self.positions = positions
        self.format = format
        self.sport = sport
        self.start = start
        self.duration = duration
        self.samples = samples
        self.laps = laps
        self.damage = damage
    }

    public var averageHeartRate: Double? {
        guard !samples.isEmpty else { return nil }
        return Double(samples.reduce(0) { $0 + $1.bpm }) / Double(samples.count)
    }

    public var maximumHeartRate: Int? { samples.map(\.bpm).max() }

    /// Where the workout's seconds count from: its start, else its first sample.
    public var origin: Date? { start ?? samples.first?.time }

    /// The samples as (seconds from `origin`, bpm), in time order.
    public func offsets() -> [(time: Double, bpm: Int)] {
        guard let origin else { return [] }
        return samples.map { ($0.time.timeIntervalSince(origin), $0.bpm) }
    }
}

public struct HeartRateSample: Sendable, Equatable, Codable {
    public var time: Date
    public var bpm: Int

    public init(time: Date, bpm: Int) {
        self.time = time
        self.bpm = bpm
    }
}

/// A position fix: WGS84 degrees and, when known, the elevation in metres.
public struct TrackPosition: Sendable, Equatable {
    public var time: Date
    public var latitude: Double
    public var longitude: Double
    public var elevation: Double?

    public init(time: Date, latitude: Double, longitude: Double, elevation: Double? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
    }

    /// Inside GPX's ranges (latitude -90...90, longitude -180..<180).
    public var isValid: Bool { (-90...90).contains(latitude) && (-180..<180).contains(longitude) && latitude.isFinite && longitude.isFinite }
}

/// A lap or interval as the file marks it.
public struct WorkoutLap: Sendable, Equatable {
    public var start: Date
    public var duration: Double
    public var intensity: LapIntensity

    public init(start: Date, duration: Double, intensity: LapIntensity = .active) {
        self.start = start
        self.duration = duration
        self.intensity = intensity
    }
}

/// FIT's lap intensity and TCX's (which has only active and resting).
public enum LapIntensity: String, Sendable, Equatable, Codable {
    case active, rest, warmup, cooldown
}

public enum WorkoutFormat: String, Sendable, Equatable, CaseIterable {
    case fit, tcx, gpx
}
