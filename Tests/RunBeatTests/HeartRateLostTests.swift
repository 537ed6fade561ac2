import Foundation
import RunBeat
import Testing

/// A strap gone silent: the heart rate the session judges is gone with it (no number, no zone
/// for the coach, no zone cue from what it was), and its return is said and judged afresh.
@Suite(.timeLimit(.minutes(5))) struct HeartRateLostTests {
    let profile = HeartRateProfile(age: 30, resting: 60)  // zones 125, 138, 151, 164, 177, 190

    @Test func aSilentStrapLeavesNoHeartRateToShowOrJudge() {
        var session = TrainingSession(plan: .free, profile: profile)
        var run = TraceRun()
        run.record(session.handle(.start), at: 0)
        for t in 0..<120 {
            run.record(session.handle(.sample(elapsed: Double(t), bpm: 160)), at: Double(t))
            run.record(session.handle(.tick(elapsed: Double(t))), at: Double(t))
        }
        #expect(session.smoothed != nil)
        #expect(session.currentZone == 3)
        // Silence: after the allowance the strap is lost, and so is the heart rate it gave.
        for t in 120..<200 { run.record(session.handle(.tick(elapsed: Double(t))), at: Double(t)) }
        #expect(session.strapSilent)
        #expect(session.smoothed == nil, "a stale heart rate is still judged")
        #expect(session.currentZone == nil, "a stale zone is still shown")
        #expect(run.cues.filter { $0.cue == .strapSilent }.count == 1)
        let heartBefore = run.heartCues.count
        // Back in zone 4: "heart rate back" at once, and the new zone only after a fresh dwell,
        // judged from the samples after the silence alone.
        for t in 200..<260 {
            run.record(session.handle(.sample(elapsed: Double(t), bpm: 170)), at: Double(t))
            run.record(session.handle(.tick(elapsed: Double(t))), at: Double(t))
        }
        let back = run.cues.filter { $0.cue == .strapBack }
        #expect(back.count == 1)
        #expect(back.first?.time == 200)
        let after = run.heartCues.dropFirst(heartBefore)
        #expect(after.count == 1, "\(after)")
        if case .zone(4, let bpm)? = after.first?.cue { #expect(bpm == 170) } else { Issue.record("\(after)") }
        #expect(after.first.map { $0.time >= 205 } ?? false, "a zone said before the fresh samples held")
    }

    @Test func aBacklogAfterSilenceIsNotSaidToBeBack() {
        var session = TrainingSession(plan: .free, profile: profile)
        var run = TraceRun()
        run.record(session.handle(.start), at: 0)
        for t in 0..<100 { run.record(session.handle(.sample(elapsed: Double(t), bpm: 140)), at: Double(t)) }
        run.record(session.handle(.tick(elapsed: 300)), at: 300)
        // Samples recorded long ago (a dropped connection's backlog) say nothing of now.
        for t in 100..<150 { run.record(session.handle(.sample(elapsed: Double(t), bpm: 140)), at: 300) }
        #expect(run.cues.filter { $0.cue == .strapBack }.isEmpty)
    }
}
