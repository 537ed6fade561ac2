/// Time in each zone from heart-rate samples: each sample holds until the next one, a gap
/// counted up to `maximumGap` (over a longer one the heart rate is not known), the last
/// sample held a second (a strap's usual interval) but not past the end.
public enum ZoneTime {
    public static let maximumGap = 5.0

    /// A workout's seconds, every one of them in exactly one place: below zone 1, in zones 1
    /// to 5, above zone 5 (over the maximum), or with no heart rate known (before the first
    /// sample, in a gap past `maximumGap`, after the last), so the parts add up to the length.
    public struct Accounted: Sendable, Equatable {
        public var below: Double
        public var zones: [Double]
        public var above: Double
        public var unknown: Double
    }

    /// Seconds below zone 1 and in zones 1 to 5 (zone 5 here also holds any time above it);
    /// `samples` are (seconds, bpm) in time order.
    public static func seconds(_ samples: [(time: Double, bpm: Int)], zones: HeartRateZones, end: Double? = nil) -> (below: Double, zones: [Double]) {
        let time = account(samples, zones: zones, end: end)
        var inZone = time.zones
        inZone[4] += time.above
        return (time.below, inZone)
    }

    /// Every second of a workout `length` seconds long accounted for (see `Accounted`).
    public static func account(_ samples: [(time: Double, bpm: Int)], zones: HeartRateZones, end: Double?, length: Double? = nil) -> Accounted {
        var inZone = [Double](repeating: 0, count: 5)
        var below = 0.0
        var above = 0.0
        let top = zones.bounds[5]
        for (i, sample) in samples.enumerated() {
            let next = i + 1 < samples.count ? samples[i + 1].time : min(end ?? .infinity, sample.time + 1)
            let span = min(max(next - sample.time, 0), maximumGap)
            let zone = zones.zone(of: Double(sample.bpm))
            if zone == 0 {
                below += span
            } else if sample.bpm > top {
                above += span
            } else {
                inZone[zone - 1] += span
            }
        }
        let known = below + above + inZone.reduce(0, +)
        return Accounted(below: below, zones: inZone, above: above, unknown: max((length ?? end ?? known) - known, 0))
    }
}
