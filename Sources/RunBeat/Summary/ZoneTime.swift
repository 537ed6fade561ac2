/// Time in each zone from heart-rate samples: each sample holds until the next one, a gap
/// counted up to `maximumGap` (over a longer one the heart rate is not known), the last
/// sample held a second (a strap's usual interval) but not past the end.
public enum ZoneTime {
    public static let maximumGap = 5.0

    /// Seconds below zone 1 and in zones 1 to 5; `samples` are (seconds, bpm) in time order.
    public static func seconds(_ samples: [(time: Double, bpm: Int)], zones: HeartRateZones, end: Double? = nil) -> (below: Double, zones: [Double]) {
        var inZone = [Double](repeating: 0, count: 5)
        var below = 0.0
        for (i, sample) in samples.enumerated() {
            let next = i + 1 < samples.count ? samples[i + 1].time : min(end ?? .infinity, sample.time + 1)
            let span = min(max(next - sample.time, 0), maximumGap)
            let zone = zones.zone(of: Double(sample.bpm))
            if zone == 0 { below += span } else { inZone[zone - 1] += span }
        }
        return (below, inZone)
    }
}
