import Foundation
public import JukeCore

/// A workout's phases in order. Free training is one open phase; a 4x4 or a custom workout
/// is a timed list (warm-up, work and recovery intervals, cool-down) that ends by itself.
public struct WorkoutPlan: Sendable, Equatable, Codable {
    public var mode: TrainingMode
    public var name: String
    public var phases: [PlanPhase]

    public init(mode: TrainingMode, name: String, phases: [PlanPhase]) {
        self.mode = mode
        self.name = name
        self.phases = phases
    }

    /// Free Training: zone announcements, no intervals, ended by the runner.
    public static let free = WorkoutPlan(mode: .free, name: "Free Training", phases: [PlanPhase(kind: .free, seconds: nil, target: nil)])

    /// The Norwegian 4x4: four 4-minute intervals at 85-95% of maximum, each followed by 3
    /// minutes of active recovery at about 70% (65-75%), between a warm-up and a cool-down.
    public static func vo2Max4x4(warmupSeconds: Int = 300, cooldownSeconds: Int = 300) -> WorkoutPlan {
        var phases: [PlanPhase] = []
        if warmupSeconds > 0 { phases.append(PlanPhase(kind: .warmup, seconds: Double(warmupSeconds), target: .percentOfMaximum(low: 60, high: 70))) }
        for _ in 0..<4 {
            phases.append(PlanPhase(kind: .work, seconds: 240, target: .percentOfMaximum(low: 85, high: 95)))
            phases.append(PlanPhase(kind: .recovery, seconds: 180, target: .percentOfMaximum(low: 65, high: 75)))
        }
        if cooldownSeconds > 0 { phases.append(PlanPhase(kind: .cooldown, seconds: Double(cooldownSeconds), target: nil)) }
        return WorkoutPlan(mode: .vo2Max4x4, name: "VO2 Max 4x4", phases: phases)
    }

    /// A runner's own intervals, checked: every phase timed, at most `maxPhases`, at most
    /// `maxSeconds` in all.
    public static func custom(name: String, steps: [WorkoutStep]) throws(RuleRefusal) -> WorkoutPlan {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 80 else { throw .invalid("name", "a workout needs a name of 1 to 80 characters") }
        var phases: [PlanPhase] = []
        for step in steps {
            guard (1...50).contains(step.repeats) else { throw .invalid("steps", "a step repeats 1 to 50 times") }
            guard !step.phases.isEmpty else { throw .invalid("steps", "a step needs at least one phase") }
            for _ in 0..<step.repeats {
                for phase in step.phases {
                    guard let seconds = phase.seconds, seconds >= 10, seconds <= 4 * 3600 else {
                        throw .unprocessable("steps", "each phase lasts 10 seconds to 4 hours")
                    }
                    guard phase.kind != .free else {
                        throw .unprocessable("steps", "a custom workout's phases are warm-up, work, recovery or cool-down")
                    }
                    if let target = phase.target { try Self.check(target) }
                    phases.append(phase)
                }
            }
            guard phases.count <= maxPhases else { throw .unprocessable("steps", "a workout has at most \(maxPhases) phases") }
        }
        guard !phases.isEmpty else { throw .invalid("steps", "a workout needs at least one phase") }
        guard phases.reduce(0.0, { $0 + ($1.seconds ?? 0) }) <= maxSeconds else { throw .unprocessable("steps", "a workout lasts at most 8 hours") }
        return WorkoutPlan(mode: .custom, name: trimmed, phases: phases)
    }

    public static let maxPhases = 200
    public static let maxSeconds = 8.0 * 3600

    static func check(_ target: PhaseTarget) throws(RuleRefusal) {
        switch target {
        case .percentOfMaximum(let low, let high):
            guard (30...100).contains(low), (30...100).contains(high), low <= high else {
                throw .unprocessable("target", "a share of the maximum is 30 to 100%, low first")
            }
        case .zones(let low, let high):
            guard (1...5).contains(low), (1...5).contains(high), low <= high else { throw .unprocessable("target", "zones are 1 to 5, low first") }
        case .heartRate(let low, let high):
            guard (40...230).contains(low), (40...230).contains(high), high - low >= HeartRateZones.minimumWidth else {
                throw .unprocessable("target", "a heart-rate target is 40 to 230 bpm and at least \(HeartRateZones.minimumWidth) bpm wide")
            }
        }
    }

    /// The whole plan's length, nil when it is open (free training).
    public var totalSeconds: Double? {
        var total = 0.0
        for phase in phases {
            guard let seconds = phase.seconds else { return nil }
            total += seconds
        }
        return total
    }

    /// Where each phase starts, in seconds from the workout's start.
    public var phaseStarts: [Double] {
        var starts: [Double] = []
        var t = 0.0
        for phase in phases {
            starts.append(t)
            t += phase.seconds ?? .infinity
        }
        return starts
    }

    /// The phase running `elapsed` seconds in; `phases.count` once a timed plan is over.
    public func phaseIndex(at elapsed: Double) -> Int {
        var t = 0.0
        for (index, phase) in phases.enumerated() {
            guard let seconds = phase.seconds else { return index }
            t += seconds
            if elapsed < t { return index }
        }
        return phases.count
    }

    /// Which work interval (1-based) phase `index` is, and how many the plan has.
    public func intervalNumber(of index: Int) -> (number: Int, of: Int)? {
        guard phases.indices.contains(index), phases[index].kind == .work else { return nil }
        let number = phases[...index].filter { $0.kind == .work }.count
        return (number, phases.filter { $0.kind == .work }.count)
    }
}

public enum TrainingMode: String, Sendable, Equatable, Codable, CaseIterable {
    case free
    case vo2Max4x4 = "vo2max_4x4"
    case custom
}

public struct PlanPhase: Sendable, Equatable, Codable {
    public var kind: PhaseKind
    /// Nil for an open phase (free training's only one).
    public var seconds: Double?
    public var target: PhaseTarget?

    public init(kind: PhaseKind, seconds: Double?, target: PhaseTarget?) {
        self.kind = kind
        self.seconds = seconds
        self.target = target
    }
}

/// What a phase is for; its music follows it (high intensity for work, recovery music for
/// recovery, and warm-up and cool-down music where the runner picked some).
public enum PhaseKind: String, Sendable, Equatable, Codable, CaseIterable {
    case warmup, work, recovery, cooldown, free
}

/// One step of a custom workout: its phases, repeated (4 x (4 min work, 3 min recovery) is
/// one step of two phases repeated 4 times).
public struct WorkoutStep: Sendable, Equatable, Codable {
    public var repeats: Int
    public var phases: [PlanPhase]

    public init(repeats: Int = 1, phases: [PlanPhase]) {
        self.repeats = repeats
        self.phases = phases
    }
}
