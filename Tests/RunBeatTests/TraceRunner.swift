import Foundation
import RunBeat
import Testing

/// Runs a heart-rate trace through a training session as the page would send it: each
/// sample at its time, a tick every second, and collects what the session said and when.
struct TraceRun {
    var cues: [(time: Double, cue: Cue)] = []
    var phases: [(time: Double, index: Int)] = []
    var strap: [(time: Double, live: Bool)] = []
    var finished: (time: Double, reason: FinishReason)?

    var heartCues: [(time: Double, cue: Cue)] {
        cues.filter {
            switch $0.cue {
            case .zone, .target: true
            default: false
            }
        }
    }

    mutating func record(_ actions: [TrainingAction], at t: Double) {
        for action in actions {
            switch action {
            case .cue(let cue): cues.append((t, cue))
            case .phaseChanged(let index): phases.append((t, index))
            case .strap(let live): strap.append((t, live))
            case .finished(let reason): finished = (t, reason)
            }
        }
    }

    static func run(_ session: inout TrainingSession, samples: [(time: Double, bpm: Int)], until end: Double? = nil) -> TraceRun {
        var run = TraceRun()
        run.record(session.handle(.start), at: 0)
        var i = 0
        let last = end ?? (samples.last?.time ?? 0)
        var t = 0.0
        while t <= last {
            while i < samples.count && samples[i].time <= t {
                run.record(session.handle(.sample(elapsed: samples[i].time, bpm: samples[i].bpm)), at: samples[i].time)
                i += 1
            }
            run.record(session.handle(.tick(elapsed: t)), at: t)
            t += 1
        }
        return run
    }
}

enum Traces {
    /// A recorded trace from Traces/: "seconds,bpm" lines.
    static func load(_ name: String) throws -> [(time: Double, bpm: Int)] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "csv", subdirectory: "Traces"))
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let parts = line.split(separator: ",")
            guard parts.count == 2, let t = Double(parts[0]), let b = Int(parts[1]) else { return nil }
            return (t, b)
        }
    }

    /// A heart following a plan's targets with a lag, plus the noise a strap adds: rising or
    /// falling toward each phase's middle at about 0.6 bpm a second.
    static func following(_ plan: WorkoutPlan, maximum: Int, zones: HeartRateZones, start: Double = 110, noise: Int = 2, seed: UInt64 = 7)
        -> [(time: Double, bpm: Int)]
    {
        var rng = seed
        func jitter() -> Int {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((rng >> 33) % UInt64(2 * noise + 1)) - noise
        }
        var out: [(time: Double, bpm: Int)] = []
        var heart = start
        let total = plan.totalSeconds ?? 600
        var t = 0.0
        while t < total {
            let index = min(plan.phaseIndex(at: t), plan.phases.count - 1)
            let goal: Double
            if let range = plan.phases[index].target?.range(maximum: maximum, zones: zones) {
                goal = Double(range.lowerBound + range.upperBound) / 2
            } else {
                goal = 110
            }
            heart += max(-0.6, min(0.6, goal - heart))
            out.append((t, Int(heart.rounded()) + jitter()))
            t += 1
        }
        return out
    }
}
