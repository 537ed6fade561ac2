public import JukeCore

/// Five heart-rate zones as six bounds: zone n runs from `bounds[n-1]` up to `bounds[n]`
/// (a shared bound belongs to the zone above it), zone 5 up to the maximum.
///
/// Automatic zones are Karvonen's: each bound a share of the heart-rate reserve (maximum
/// minus resting) above resting, 50, 60, 70, 80, 90 and 100%, rounded to whole bpm. Manual
/// zones are edited a bound at a time, in both directions: a bound is shared by two zones,
/// so moving it widens one and narrows the other, and no zone may become narrower than
/// `minimumWidth` (RunBeat's rule).
public struct HeartRateZones: Sendable, Equatable, Codable {
    public static let minimumWidth = 5
    public static let karvonenShares: [Double] = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    /// The lowest and highest bound a person's zones can have.
    public static let limits = 30...240

    public private(set) var bounds: [Int]

    /// Karvonen's zones for a profile.
    public init(karvonen profile: HeartRateProfile) {
        let reserve = Double(profile.maximum - profile.resting)
        bounds = Self.karvonenShares.map { profile.resting + Int(($0 * reserve).rounded()) }
    }

    /// Zones from six bounds, refused unless each zone is at least `minimumWidth` wide.
    public init(bounds: [Int]) throws(RuleRefusal) {
        guard bounds.count == 6 else { throw .invalid("zones", "five zones need six bounds, not \(bounds.count)") }
        guard bounds.allSatisfy(Self.limits.contains) else {
            throw .invalid("zones", "zone bounds must be between \(Self.limits.lowerBound) and \(Self.limits.upperBound) bpm")
        }
        // Each bound within the limits is a valid value; zones too narrow is a rule about them together.
        for i in 1..<6 where bounds[i] - bounds[i - 1] < Self.minimumWidth {
            throw .unprocessable("zones", "zone \(i) is \(bounds[i] - bounds[i - 1]) bpm wide; each zone must be at least \(Self.minimumWidth) bpm")
        }
        self.bounds = bounds
    }

    public struct Zone: Sendable, Equatable, Codable {
        public let zone: Int
        public let low: Int
        public let high: Int

        public init(zone: Int, low: Int, high: Int) {
            self.zone = zone
            self.low = low
            self.high = high
        }
    }

    public var zones: [Zone] { (1...5).map { Zone(zone: $0, low: bounds[$0 - 1], high: bounds[$0]) } }

    /// The zone a heart rate is in: 0 below zone 1, 5 at or above zone 5's lower bound.
    public func zone(of bpm: Double) -> Int {
        var zone = 0
        for i in 0..<5 where bpm >= Double(bounds[i]) { zone = i + 1 }
        return zone
    }

    /// How far bound `index` (0 is zone 1's low, 5 is zone 5's high) can move with every
    /// zone keeping its minimum width: what a picker offers.
    public func range(ofBound index: Int) -> ClosedRange<Int>? {
        guard bounds.indices.contains(index) else { return nil }
        let low = index == 0 ? Self.limits.lowerBound : bounds[index - 1] + Self.minimumWidth
        let high = index == 5 ? Self.limits.upperBound : bounds[index + 1] - Self.minimumWidth
        return low <= high ? low...high : nil
    }

    /// Moves one bound: the zone below it and the zone above it change together.
    public func setting(bound index: Int, to bpm: Int) throws(RuleRefusal) -> HeartRateZones {
        guard let range = range(ofBound: index) else { throw .invalid("bound", "bound must be 0 to 5") }
        guard range.contains(bpm) else {
            throw .invalid("bpm", "that bound can be \(range.lowerBound) to \(range.upperBound) bpm, keeping every zone \(Self.minimumWidth) bpm wide")
        }
        var copy = self
        copy.bounds[index] = bpm
        return copy
    }

    /// Sets one zone's low and high, moving its neighbours' shared bounds with it.
    public func setting(zone: Int, low: Int, high: Int) throws(RuleRefusal) -> HeartRateZones {
        guard (1...5).contains(zone) else { throw .invalid("zone", "zone must be 1 to 5") }
        guard high - low >= Self.minimumWidth else { throw .invalid("high", "a zone must be at least \(Self.minimumWidth) bpm wide") }
        // Move the bound that grows the zone first, so the other's range allows it.
        if low < bounds[zone - 1] {
            return try setting(bound: zone - 1, to: low).setting(bound: zone, to: high)
        }
        return try setting(bound: zone, to: high).setting(bound: zone - 1, to: low)
    }
}
