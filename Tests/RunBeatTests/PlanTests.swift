import JukeCore
import RunBeat
import Testing

@Suite(.timeLimit(.minutes(5))) struct PlanTests {
    @Test func theFourByFourIsFourHardIntervalsWithRecoveriesBetweenWarmUpAndCoolDown() {
        let plan = WorkoutPlan.vo2Max4x4(warmupSeconds: 600, cooldownSeconds: 300)
        #expect(plan.phases.map(\.kind) == [.warmup, .work, .recovery, .work, .recovery, .work, .recovery, .work, .recovery, .cooldown])
        #expect(plan.totalSeconds == 2580.0)
        #expect(plan.phaseStarts.prefix(4) == [0, 600, 840, 1020])
        #expect(plan.phaseIndex(at: 599.9) == 0)
        #expect(plan.phaseIndex(at: 600) == 1)
        #expect(plan.phaseIndex(at: 2580) == plan.phases.count)
        #expect(plan.intervalNumber(of: 5)?.number == 3)
        #expect(plan.intervalNumber(of: 5)?.of == 4)
        #expect(plan.intervalNumber(of: 2) == nil)
        // 85-95% of a 190 maximum.
        let zones = HeartRateZones(karvonen: HeartRateProfile(age: 30, resting: 60))
        #expect(plan.phases[1].target?.range(maximum: 190, zones: zones) == 162...181)
        #expect(plan.phases[2].target?.range(maximum: 190, zones: zones) == 124...143)
        #expect(WorkoutPlan.vo2Max4x4(warmupSeconds: 0, cooldownSeconds: 0).totalSeconds == 1680.0)  // 28 minutes
    }

    @Test func freeTrainingIsOneOpenPhase() {
        #expect(WorkoutPlan.free.totalSeconds == nil)
        #expect(WorkoutPlan.free.phaseIndex(at: 1e7) == 0)
    }

    @Test func customWorkoutsRepeatTheirStepsAndAreChecked() throws {
        let plan = try WorkoutPlan.custom(
            name: " Pyramid ",
            steps: [
                WorkoutStep(phases: [PlanPhase(kind: .warmup, seconds: 300, target: .zones(low: 1, high: 2))]),
                WorkoutStep(
                    repeats: 3,
                    phases: [
                        PlanPhase(kind: .work, seconds: 60, target: .heartRate(low: 160, high: 175)),
                        PlanPhase(kind: .recovery, seconds: 90, target: nil),
                    ]),
            ])
        #expect(plan.name == "Pyramid")
        #expect(plan.mode == .custom)
        #expect(plan.phases.count == 7)
        #expect(plan.totalSeconds == 750.0)
        let zones = HeartRateZones(karvonen: HeartRateProfile(age: 40, resting: 60))
        #expect(plan.phases[0].target?.range(maximum: 180, zones: zones) == 120...143)
        #expect(throws: RuleRefusal.self) { try WorkoutPlan.custom(name: "x", steps: []) }
        #expect(throws: RuleRefusal.self) { try WorkoutPlan.custom(name: "", steps: [WorkoutStep(phases: [PlanPhase(kind: .work, seconds: 60, target: nil)])]) }
        #expect(throws: RuleRefusal.self) { try WorkoutPlan.custom(name: "x", steps: [WorkoutStep(phases: [PlanPhase(kind: .work, seconds: 5, target: nil)])]) }
        #expect(throws: RuleRefusal.self) {
            try WorkoutPlan.custom(name: "x", steps: [WorkoutStep(phases: [PlanPhase(kind: .free, seconds: 60, target: nil)])])
        }
        #expect(throws: RuleRefusal.self) {
            try WorkoutPlan.custom(name: "x", steps: [WorkoutStep(repeats: 50, phases: [PlanPhase(kind: .work, seconds: 3600, target: nil)])])
        }
        #expect(throws: RuleRefusal.self) {
            try WorkoutPlan.custom(name: "x", steps: [WorkoutStep(phases: [PlanPhase(kind: .work, seconds: 60, target: .heartRate(low: 150, high: 152))])])
        }
    }
}
