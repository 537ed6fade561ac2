import Foundation
import RunBeat
import Testing

/// The cue rules, each over a recorded or a made-up trace.
@Suite(.timeLimit(.minutes(5))) struct TrainingSessionTests {
    let profile = HeartRateProfile(age: 30, resting: 60)  // maximum 190; zones 125, 138, 151, 164, 177, 190

    /// A heart wandering across a zone edge (151, zones 2 and 3) for ten minutes, with a
    /// strap's noise and a spike now and then.
    func edgeTrace() -> [(time: Double, bpm: Int)] {
        var rng: UInt64 = 42
        return (0..<600).map { t in
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var bpm = 151 + Int((rng >> 33) % 7) - 3
            if t % 97 == 0 { bpm = 205 }
            return (Double(t), bpm)
        }
    }

    @Test func aNoisyHeartAtAZoneEdgeIsNotASpeechStorm() {
        var session = TrainingSession(plan: .free, profile: profile)
        let run = TraceRun.run(&session, samples: edgeTrace())
        // The first zone is said once the grace is over; the dead band and the smoothing keep
        // the rest quiet.
        #expect(run.heartCues.count <= 2, "\(run.heartCues)")
        #expect(run.heartCues.first.map { $0.time >= 45 } ?? false)
        // The same trace with no smoothing, no dead band, no dwell and the shortest cooldown:
        // what the rules prevent.
        let bare = CueRules(smoothingSeconds: 1, trimFraction: 0, deadBand: 0, dwellSeconds: 0, cooldownSeconds: 5, phaseGraceSeconds: 0, minimumGapSeconds: 1)
        var naive = TrainingSession(plan: .free, profile: profile, rules: bare)
        #expect(TraceRun.run(&naive, samples: edgeTrace()).heartCues.count > 40)
    }

    @Test func aRecordedRunIsAnnouncedCalmlyAndTruthfully() throws {
        let trace = try Traces.load("fenix2-run")
        var session = TrainingSession(plan: .free, profile: profile)
        let run = TraceRun.run(&session, samples: trace)
        let heart = run.heartCues
        #expect(heart.count >= 5)
        // Never two heart cues within the cooldown, never any two cues within the gap.
        for (a, b) in zip(heart, heart.dropFirst()) { #expect(b.time - a.time >= 30) }
        for (a, b) in zip(run.cues, run.cues.dropFirst()) { #expect(b.time - a.time >= 4) }
        // Each zone said is the zone of the smoothed heart rate it quotes.
        let zones = HeartRateZones(karvonen: profile)
        for cue in heart {
            guard case .zone(let zone, let bpm) = cue.cue else { continue }
            #expect(abs(zones.zone(of: Double(bpm)) - zone) <= 1)
        }
        // A longer cooldown is obeyed.
        var patient = TrainingSession(plan: .free, profile: profile, rules: CueRules(cooldownSeconds: 120))
        let slow = TraceRun.run(&patient, samples: trace).heartCues
        #expect(slow.count < heart.count)
        for (a, b) in zip(slow, slow.dropFirst()) { #expect(b.time - a.time >= 120) }
    }

    @Test func theFourByFourRunsItsTimelineAndJudgesAfterTheGrace() {
        let plan = WorkoutPlan.vo2Max4x4(warmupSeconds: 300, cooldownSeconds: 300)
        let zones = HeartRateZones(karvonen: profile)
        var session = TrainingSession(plan: plan, profile: profile)
        let trace = Traces.following(plan, maximum: 190, zones: zones)
        let run = TraceRun.run(&session, samples: trace, until: 2300)
        // Each phase is announced at its start, in order, then the end.
        #expect(run.phases.map(\.index) == Array(0..<plan.phases.count))
        #expect(zip(run.phases.map(\.time), plan.phaseStarts).allSatisfy { $0 == $1 })
        let phaseCues = run.cues.filter {
            if case .phase = $0.cue { return true }
            return false
        }
        #expect(phaseCues.count == plan.phases.count)
        if case .phase(.work, 240, 2, 4) = phaseCues[3].cue {} else { Issue.record("the second work interval: \(phaseCues[3].cue)") }
        #expect(run.finished?.reason == .completed)
        #expect(run.finished?.time == 2280)
        #expect(run.cues.last?.cue == .finished)
        // No heart cue inside a phase's first 45 seconds.
        for cue in run.heartCues {
            let index = plan.phaseIndex(at: cue.time)
            #expect(cue.time - plan.phaseStarts[index] >= 45, "\(cue)")
        }
        // In each work interval the lagging heart is first told to speed up, then that it is in range.
        for interval in 0..<4 {
            let start = plan.phaseStarts[1 + 2 * interval]
            let said = run.heartCues.filter { $0.time >= start && $0.time < start + 240 }.map(\.cue)
            guard case .target(.below, _, 162, 181)? = said.first else {
                Issue.record("interval \(interval + 1): \(said)")
                continue
            }
            #expect(said.contains { if case .target(.inRange, _, _, _) = $0 { true } else { false } }, "interval \(interval + 1): \(said)")
        }
        // With no grace the first word in a work interval comes sooner.
        var eager = TrainingSession(plan: plan, profile: profile, rules: CueRules(phaseGraceSeconds: 0))
        let early = TraceRun.run(&eager, samples: trace, until: 2300).heartCues.filter { $0.time >= 300 && $0.time < 540 }
        #expect(early.first.map { $0.time < 345 } ?? false)
    }

    @Test func aShortExcursionIsNotAnnouncedButAHeldOneIs() {
        // Zone 2 (about 140) for two minutes, 3 seconds at 160 (zone 3), back, then 160 for good.
        var trace: [(time: Double, bpm: Int)] = (0..<120).map { (Double($0), 140) }
        trace += (120..<123).map { (Double($0), 170) }
        trace += (123..<200).map { (Double($0), 140) }
        trace += (200..<260).map { (Double($0), 160) }
        var session = TrainingSession(plan: .free, profile: profile, rules: CueRules(trimFraction: 0))
        let cues = TraceRun.run(&session, samples: trace).heartCues
        #expect(cues.count == 2)
        if case .zone(2, _)? = cues.first?.cue {} else { Issue.record("\(cues)") }
        if case .zone(3, _)? = cues.last?.cue {} else { Issue.record("\(cues)") }
        // Zone 3 is said after the smoothing catches up and the dwell holds: not at once, not late.
        #expect(cues.last.map { $0.time > 200 && $0.time <= 215 } ?? false)
        // A 30-second dwell hears nothing of a 20-second visit.
        var visit: [(time: Double, bpm: Int)] = (0..<120).map { (Double($0), 140) }
        visit += (120..<140).map { (Double($0), 160) }
        visit += (140..<200).map { (Double($0), 140) }
        var patient = TrainingSession(plan: .free, profile: profile, rules: CueRules(dwellSeconds: 30))
        #expect(TraceRun.run(&patient, samples: visit).heartCues.count == 1)
    }

    @Test func aSilentStrapIsSaidOnceAndItsReturnNoticed() {
        var trace: [(time: Double, bpm: Int)] = (0..<100).map { (Double($0), 140) }
        trace += (140..<160).map { (Double($0), 140) }
        var session = TrainingSession(plan: .free, profile: profile)
        let run = TraceRun.run(&session, samples: trace)
        #expect(run.strap.map(\.live) == [false, true])
        #expect(run.strap.first?.time == 109)
        #expect(run.cues.filter { $0.cue == .strapSilent }.count == 1)
        // A longer allowance waits longer.
        var lenient = TrainingSession(plan: .free, profile: profile, rules: CueRules(silentStrapSeconds: 30))
        #expect(TraceRun.run(&lenient, samples: trace).strap.first?.time == 129)
    }

    @Test func aBacklogAfterADroppedConnectionIsKeptQuiet() {
        var session = TrainingSession(plan: .free, profile: profile)
        var run = TraceRun()
        run.record(session.handle(.start), at: 0)
        for t in 0..<100 { run.record(session.handle(.sample(elapsed: Double(t), bpm: 140)), at: Double(t)) }
        let before = run.heartCues.count
        // The page comes back at 300 s and sends what it recorded meanwhile, a climb to zone 4.
        run.record(session.handle(.tick(elapsed: 300)), at: 300)
        for t in 100..<300 { run.record(session.handle(.sample(elapsed: Double(t), bpm: 170)), at: 300) }
        #expect(run.heartCues.count == before)
        // Live samples after it are judged as usual.
        for t in 300..<320 { run.record(session.handle(.sample(elapsed: Double(t), bpm: 170)), at: Double(t)) }
        #expect(run.heartCues.count == before + 1)
        // A sample older than the last one judged changes nothing.
        #expect(session.handle(.sample(elapsed: 10, bpm: 60)).isEmpty)
    }

    @Test func outOfTargetIsRepeatedAtTheReminderInterval() {
        let plan = WorkoutPlan.vo2Max4x4(warmupSeconds: 0, cooldownSeconds: 0)
        // Stuck at 140 through the first work interval (target 162-181).
        let trace: [(time: Double, bpm: Int)] = (0..<240).map { (Double($0), 140) }
        var session = TrainingSession(plan: plan, profile: profile)
        let cues = TraceRun.run(&session, samples: trace, until: 239).heartCues
        // Below since the start: said when the grace ends, then every minute.
        #expect(cues.map(\.time) == [45, 105, 165, 225])
        var once = TrainingSession(plan: plan, profile: profile, rules: CueRules(reminderSeconds: 0))
        #expect(TraceRun.run(&once, samples: trace, until: 239).heartCues.count == 1)
    }

    @Test func endingIsTheOneWayOutAndNothingFollowsIt() {
        var session = TrainingSession(plan: .free, profile: profile)
        _ = session.handle(.start)
        _ = session.handle(.sample(elapsed: 1, bpm: 120))
        #expect(session.handle(.end(elapsed: 2)) == [.finished(.ended), .cue(.finished)])
        #expect(session.status == .finished(.ended))
        #expect(session.handle(.sample(elapsed: 3, bpm: 120)).isEmpty)
        #expect(session.handle(.end(elapsed: 4)).isEmpty)
        #expect(session.handle(.start).isEmpty)
    }

    @Test func theSummaryCountsZonesAndIntervalsHit() {
        let plan = WorkoutPlan.vo2Max4x4(warmupSeconds: 300, cooldownSeconds: 300)
        let zones = HeartRateZones(karvonen: profile)
        let session = TrainingSession(plan: plan, profile: profile)
        let trace = Traces.following(plan, maximum: 190, zones: zones)
        let summary = WorkoutSummary.make(samples: trace, seconds: 2280, zones: zones, plan: plan, targets: session.targets, grace: 45)
        #expect(summary.intervals.count == 4)
        #expect(summary.intervalsHit == 4)
        #expect(abs(summary.zoneSeconds.reduce(0, +) + summary.belowZonesSeconds - 2280) < 1)
        #expect(summary.peakHeartRate ?? 0 >= 170)
        // A heart that never got there hit none.
        let flat = (0..<2280).map { (Double($0), 130) }
        let missed = WorkoutSummary.make(samples: flat, seconds: 2280, zones: zones, plan: plan, targets: session.targets, grace: 45)
        #expect(missed.intervalsHit == 0)
        #expect(missed.zoneSeconds[0] == 2280)
        // Stopped 80 seconds into the second interval: only the first is a hit.
        let cut = WorkoutSummary.make(samples: Array(trace.prefix(800)), seconds: 800, zones: zones, plan: plan, targets: session.targets, grace: 45)
        #expect(cut.intervals.count == 2)
        #expect(cut.intervalsHit == 1)
    }
}
