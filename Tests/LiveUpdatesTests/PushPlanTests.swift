import Foundation
import JukeCore
import LiveUpdates
import Testing

/// When a room's screens get a frame, and which screens: every rule of the push plan with
/// made-up times (no clock is read but once, as an origin, and nothing waits).
@Suite(.timeLimit(.minutes(5))) struct PushPlanTests {
    let t0 = ContinuousClock.now
    let host = UserID()
    let ann = UserID()
    let bob = UserID()
    let timing = PushPlan.Timing(settle: .seconds(1), pace: .milliseconds(100), pacePerWatcher: .zero)

    func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }

    /// A room with the host's and two players' connections, their first frames sent.
    func room(timing: PushPlan.Timing? = nil) -> (PushPlan, host: UUID, ann: UUID, bob: UUID) {
        var plan = PushPlan(host: host, timing: timing ?? self.timing)
        let (h, a, b) = (UUID(), UUID(), UUID())
        _ = plan.subscribe(h, viewer: host, version: 1, now: at(0))
        _ = plan.frameBuilt(now: at(0))
        _ = plan.subscribe(a, viewer: ann, version: 1, now: at(0))
        _ = plan.frameBuilt(now: at(0))
        _ = plan.subscribe(b, viewer: bob, version: 1, now: at(0))
        _ = plan.frameBuilt(now: at(0))
        _ = plan.timerFired(now: at(1000))  // the presence of the arrivals has settled
        if plan.building { _ = plan.frameBuilt(now: at(1000)) }
        return (plan, h, a, b)
    }

    static func deliveries(_ actions: [PushPlan.Action]) -> [PushPlan.Delivery] {
        actions.compactMap { if case .deliver(let d) = $0 { d } else { nil } }
    }

    @Test func aNewConnectionGetsItsFirstStateAtOnceAndTheHostSeesItOnline() {
        var plan = PushPlan(host: host, timing: timing)
        let h = UUID()
        #expect(plan.subscribe(h, viewer: host, version: 3, now: at(0)) == [.wake(at: at(1000)), .build(version: 3)])
        _ = plan.frameBuilt(now: at(5))
        let a = UUID()
        // Within the pace, and still the first state goes out now: a new screen does not wait.
        #expect(plan.subscribe(a, viewer: ann, version: 3, now: at(10)) == [.build(version: 3)])
        let sent = Self.deliveries(plan.frameBuilt(now: at(12)))
        #expect(sent == [PushPlan.Delivery(timed: [h], untimed: [a], since: nil, urgent: false)])
        #expect(plan.online == [host, ann])
    }

    @Test func aChangeForOnePlayerReachesThemAndTheHostOnlyTimedFromItsStart() {
        var (plan, h, a, _) = room()
        #expect(plan.changed(version: 2, audience: .init(viewers: [ann]), since: at(1500), now: at(1501)) == [.build(version: 2)])
        let sent = Self.deliveries(plan.frameBuilt(now: at(1503)))
        #expect(sent == [PushPlan.Delivery(timed: [h, a], since: at(1500))])
    }

    @Test func changesComingFasterThanThePaceWaitAndGoOutTogether() {
        var (plan, h, a, b) = room()
        _ = plan.changed(version: 2, audience: .init(viewers: [ann]), since: at(2000), now: at(2000))
        _ = plan.frameBuilt(now: at(2001))
        // Within the pace: nothing is built, the plan asks to be woken when the pace allows.
        #expect(plan.changed(version: 3, audience: .init(viewers: [bob]), since: at(2010), now: at(2010)) == [.wake(at: at(2101))])
        #expect(plan.changed(version: 4, audience: .init(viewers: [ann]), since: at(2050), now: at(2050)) == [.wake(at: at(2101))])
        #expect(plan.timerFired(now: at(2101)) == [.build(version: 4)])
        let sent = Self.deliveries(plan.frameBuilt(now: at(2102)))
        #expect(sent == [PushPlan.Delivery(timed: [h, a, b], since: at(2010))])
    }

    @Test func aChangeForEveryoneIsNotPaced() {
        var (plan, _, _, _) = room()
        _ = plan.changed(version: 2, audience: .init(viewers: [ann]), since: at(2000), now: at(2000))
        _ = plan.frameBuilt(now: at(2001))
        #expect(plan.changed(version: 3, audience: .init(everyone: true), since: at(2010), now: at(2010)) == [.build(version: 3)])
        let sent = Self.deliveries(plan.frameBuilt(now: at(2011)))
        #expect(sent == [PushPlan.Delivery(everyone: true, since: at(2010), urgent: true)])
    }

    @Test func thePaceGrowsWithTheRoom() {
        var (plan, _, _, _) = room(timing: .init(settle: .seconds(1), pace: .milliseconds(100), pacePerWatcher: .milliseconds(10)))
        _ = plan.changed(version: 2, audience: .init(viewers: [ann]), since: at(2000), now: at(2000))
        _ = plan.frameBuilt(now: at(2000))
        // Three connections: 100 ms + 3 × 10 ms.
        #expect(plan.changed(version: 3, audience: .init(viewers: [ann]), since: at(2001), now: at(2001)) == [.wake(at: at(2130))])
    }

    @Test func whoIsSeatedReachesTheRestOfTheRoomAfterTheSettlingTime() {
        var (plan, h, a, _) = room()
        // Ann's seat changed: she and the host see it now, everyone within the settling time.
        let actions = plan.changed(version: 2, audience: .init(viewers: [ann], everyoneSoon: true), since: at(3000), now: at(3000))
        #expect(actions == [.wake(at: at(4000)), .build(version: 2)])
        #expect(Self.deliveries(plan.frameBuilt(now: at(3001))) == [PushPlan.Delivery(timed: [h, a], since: at(3000))])
        // More arrivals meanwhile settle together, in one frame for everyone.
        _ = plan.changed(version: 3, audience: .init(viewers: [bob], everyoneSoon: true), since: at(3500), now: at(3500))
        _ = plan.frameBuilt(now: at(3500))
        #expect(plan.timerFired(now: at(4000)) == [.build(version: 3)])
        #expect(Self.deliveries(plan.frameBuilt(now: at(4001))).first?.everyone == true)
    }

    /// In a big room the frame for everyone comes less often: 3 connections at 500 ms each
    /// settle in 1.5 s, not the 1 s floor; the viewer concerned and the host still see it now,
    /// and a presence change (the host's alone) keeps the 1 s.
    @Test func theRoomWideFrameSettlesLongerInABigRoom() {
        var (plan, h, a, _) = room(timing: .init(settle: .seconds(1), pace: .milliseconds(100), pacePerWatcher: .zero, settlePerWatcher: .milliseconds(500)))
        let actions = plan.changed(version: 2, audience: .init(viewers: [ann], everyoneSoon: true), since: at(3000), now: at(3000))
        #expect(actions == [.wake(at: at(4500)), .build(version: 2)])
        #expect(Self.deliveries(plan.frameBuilt(now: at(3001))) == [PushPlan.Delivery(timed: [h, a], since: at(3000))])
        #expect(plan.timerFired(now: at(4000)) == [.wake(at: at(4500))], "not yet: nothing is built")
        #expect(plan.timerFired(now: at(4500)) == [.build(version: 2)])
        #expect(Self.deliveries(plan.frameBuilt(now: at(4501))).first?.everyone == true)
    }

    @Test func aChangeDuringABuildWaitsForTheNextFrameInsteadOfBeingLost() {
        var (plan, h, a, b) = room()
        #expect(plan.changed(version: 2, audience: .init(viewers: [ann]), since: at(2000), now: at(2000)) == [.build(version: 2)])
        // Bob's change arrives while version 2 is being built: version 2's frame goes to Ann
        // and the host, and a frame of version 3 follows for Bob, once the pace allows.
        #expect(plan.changed(version: 3, audience: .init(viewers: [bob]), since: at(2001), now: at(2001)) == [])
        let after = plan.frameBuilt(now: at(2002))
        #expect(Self.deliveries(after) == [PushPlan.Delivery(timed: [h, a], since: at(2000))])
        #expect(after.last == .wake(at: at(2102)))
        #expect(plan.timerFired(now: at(2102)) == [.build(version: 3)])
        #expect(Self.deliveries(plan.frameBuilt(now: at(2103))) == [PushPlan.Delivery(timed: [h, b], since: at(2001))])
    }

    @Test func aViewerWhoseLastConnectionClosesIsOfflineForTheHostAfterTheSettlingTime() {
        var (plan, h, _, b) = room()
        #expect(plan.unsubscribe(b, now: at(5000)) == [.wake(at: at(6000))])
        #expect(plan.online == [host, ann])
        #expect(plan.timerFired(now: at(6000)) == [.build(version: 1)])
        #expect(Self.deliveries(plan.frameBuilt(now: at(6001))) == [PushPlan.Delivery(timed: [h])])
    }

    @Test func aViewerWithAnotherConnectionOpenStaysOnline() {
        var (plan, _, a, _) = room()
        let second = UUID()
        _ = plan.subscribe(second, viewer: ann, version: 1, now: at(5000))
        _ = plan.frameBuilt(now: at(5000))
        #expect(plan.unsubscribe(a, now: at(5001)) == [])
        #expect(plan.online.contains(ann))
    }

    @Test func anEarlierWakeUpDoesNotLoseTheSettlingOne() {
        var (plan, _, _, _) = room()
        _ = plan.changed(version: 2, audience: .init(viewers: [ann]), since: at(2000), now: at(2000))
        _ = plan.frameBuilt(now: at(2000))
        #expect(
            plan.changed(version: 3, audience: .init(viewers: [bob], everyoneSoon: true), since: at(2010), now: at(2010)) == [
                .wake(at: at(3010)), .wake(at: at(2100)),
            ])
        // The hub keeps the earlier timer only; when it fires, the settling is asked for again.
        #expect(plan.timerFired(now: at(2100)) == [.wake(at: at(3010)), .build(version: 3)])
    }

    @Test func whatAFrameThatFailedOwedWaitsForTheNext() {
        var (plan, h, a, _) = room()
        _ = plan.changed(version: 2, audience: .init(viewers: [ann]), since: at(2000), now: at(2000))
        plan.frameFailed()
        #expect(!plan.building)
        #expect(plan.changed(version: 3, audience: .init(viewers: [ann]), since: at(2500), now: at(2500)) == [.build(version: 3)])
        #expect(Self.deliveries(plan.frameBuilt(now: at(2501))) == [PushPlan.Delivery(timed: [h, a], since: at(2000))])
    }

    @Test func anEmptyRoomOrAnEmptyAudienceOwesNothing() {
        var empty = PushPlan(host: host, timing: timing)
        #expect(empty.changed(version: 2, audience: .init(everyone: true), since: at(0), now: at(0)) == [])
        var (plan, _, _, _) = room()
        #expect(plan.changed(version: 2, audience: .init(), since: at(2000), now: at(2000)) == [])
    }
}
