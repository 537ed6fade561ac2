/// What a phase asks of the heart: a share of the maximum (the 4x4's 85-95%), a zone or a
/// run of zones, or plain beats per minute. Resolved against the runner's zones into bpm.
public enum PhaseTarget: Sendable, Equatable, Codable {
    case percentOfMaximum(low: Int, high: Int)
    case zones(low: Int, high: Int)
    case heartRate(low: Int, high: Int)

    /// The target in bpm for a runner: `low` up to `high` inclusive.
    public func range(maximum: Int, zones: HeartRateZones) -> ClosedRange<Int> {
        switch self {
        case .percentOfMaximum(let low, let high):
            let a = Int((Double(maximum * low) / 100).rounded())
            let b = Int((Double(maximum * high) / 100).rounded())
            return min(a, b)...max(a, b)
        case .zones(let low, let high):
            let lo = max(1, min(low, high, 5))
            let hi = min(5, max(low, high, 1))
            return zones.bounds[lo - 1]...(zones.bounds[hi] - 1)
        case .heartRate(let low, let high):
            return min(low, high)...max(low, high)
        }
    }
}
