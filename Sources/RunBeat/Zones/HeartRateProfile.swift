public import JukeCore

/// What a runner's zones are made from: age, resting heart rate, and the maximum (measured,
/// or estimated by a formula from the age).
public struct HeartRateProfile: Sendable, Equatable, Codable {
    public var age: Int
    public var resting: Int
    /// A measured maximum; nil to estimate it with `formula`.
    public var measuredMaximum: Int?
    public var formula: MaximumFormula

    public static let ages = 10...100
    public static let restingRates = 30...120
    public static let maximumRates = 100...230

    public init(age: Int, resting: Int, measuredMaximum: Int? = nil, formula: MaximumFormula = .fox) {
        self.age = age
        self.resting = resting
        self.measuredMaximum = measuredMaximum
        self.formula = formula
    }

    public var maximum: Int { measuredMaximum ?? formula.maximum(age: age) }

    /// Refuses an age, resting or maximum no person has, and a maximum not above resting by
    /// enough to hold five zones of at least `HeartRateZones.minimumWidth`.
    public func validated() throws(RuleRefusal) -> HeartRateProfile {
        guard Self.ages.contains(age) else { throw .invalid("age", "age must be between \(Self.ages.lowerBound) and \(Self.ages.upperBound)") }
        guard Self.restingRates.contains(resting) else {
            throw .invalid("resting", "resting heart rate must be between \(Self.restingRates.lowerBound) and \(Self.restingRates.upperBound) bpm")
        }
        if let measuredMaximum, !Self.maximumRates.contains(measuredMaximum) {
            throw .invalid("max", "maximum heart rate must be between \(Self.maximumRates.lowerBound) and \(Self.maximumRates.upperBound) bpm")
        }
        // Each zone 10% of the reserve: at least 5 bpm needs a reserve of 50.
        guard maximum - resting >= 10 * HeartRateZones.minimumWidth else {
            throw .unprocessable("resting", "maximum (\(maximum)) must be at least \(10 * HeartRateZones.minimumWidth) bpm above resting (\(resting))")
        }
        return self
    }
}

/// How the maximum heart rate is estimated from the age.
public enum MaximumFormula: String, Sendable, Equatable, Codable, CaseIterable {
    /// Fox and Haskell: 220 - age.
    case fox
    /// Tanaka, Monahan and Seals (2001): 208 - 0.7 x age.
    case tanaka

    public func maximum(age: Int) -> Int {
        switch self {
        case .fox: 220 - age
        case .tanaka: Int((208 - 0.7 * Double(age)).rounded())
        }
    }
}
