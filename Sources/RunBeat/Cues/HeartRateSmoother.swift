/// A trimmed moving average over the last few seconds of heart-rate samples: the top and
/// bottom share of the window dropped, the rest averaged. A strap's single spike (a 220 from
/// a loose electrode) moves it little; a real change moves it within the window.
public struct HeartRateSmoother: Sendable, Equatable {
    public let windowSeconds: Double
    public let trimFraction: Double
    private var window: [(time: Double, bpm: Double)] = []

    public init(windowSeconds: Double, trimFraction: Double) {
        self.windowSeconds = windowSeconds
        self.trimFraction = trimFraction
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.windowSeconds == b.windowSeconds && a.trimFraction == b.trimFraction && a.window.elementsEqual(b.window, by: { $0 == $1 })
    }

    /// Adds a sample (in time order) and returns the smoothed rate.
    public mutating func add(time: Double, bpm: Double) -> Double {
        window.append((time, bpm))
        let oldest = time - windowSeconds
        if let keep = window.firstIndex(where: { $0.time > oldest }), keep > 0 { window.removeFirst(keep) }
        return value ?? bpm
    }

    public var value: Double? {
        guard !window.isEmpty else { return nil }
        let sorted = window.map(\.bpm).sorted()
        let cut = Int(Double(sorted.count) * trimFraction)
        let kept = sorted[cut..<(sorted.count - cut)]
        return kept.reduce(0, +) / Double(kept.count)
    }

    public mutating func reset() { window.removeAll() }
}
