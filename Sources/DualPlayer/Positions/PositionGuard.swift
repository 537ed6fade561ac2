/// The seed's safety guard: durations and positions from players and files can be NaN,
/// infinite (a live stream) or negative (a damaged file). None of those may be stored,
/// shown or seeked to.
public enum PositionGuard {
    /// `value` if it is a finite, non-negative number of seconds; otherwise 0.
    public static func sanitized(_ value: Double) -> Double {
        value.isFinite && value >= 0 ? value : 0
    }

    /// A position inside a known duration (an unknown or broken duration does not bound it).
    public static func sanitized(_ position: Double, duration: Double?) -> Double {
        let p = sanitized(position)
        guard let duration, duration.isFinite, duration > 0 else { return p }
        return min(p, duration)
    }
}
