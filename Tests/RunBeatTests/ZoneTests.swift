import JukeCore
import RunBeat
import Testing

@Suite(.timeLimit(.minutes(5))) struct ZoneTests {
    @Test func karvonenZonesAreSharesOfTheReserveAboveResting() throws {
        // Age 40: maximum 180 (220 - 40); resting 60: reserve 120.
        let zones = HeartRateZones(karvonen: HeartRateProfile(age: 40, resting: 60))
        #expect(zones.bounds == [120, 132, 144, 156, 168, 180])
        #expect(zones.zones.map(\.zone) == [1, 2, 3, 4, 5])
        #expect(zones.zones[2] == HeartRateZones.Zone(zone: 3, low: 144, high: 156))
        #expect(zones.zone(of: 119.9) == 0)
        #expect(zones.zone(of: 120) == 1)
        #expect(zones.zone(of: 155.9) == 3)
        #expect(zones.zone(of: 156) == 4)
        #expect(zones.zone(of: 200) == 5)
    }

    @Test func theMaximumComesFromAFormulaOrAMeasurement() throws {
        #expect(HeartRateProfile(age: 50, resting: 60).maximum == 170)
        #expect(HeartRateProfile(age: 50, resting: 60, formula: .tanaka).maximum == 173)  // 208 - 35
        #expect(HeartRateProfile(age: 50, resting: 60, measuredMaximum: 181, formula: .tanaka).maximum == 181)
        // Rounded to whole bpm: resting 53, maximum 187 (Tanaka at 30: 187): reserve 134.
        let zones = HeartRateZones(karvonen: HeartRateProfile(age: 30, resting: 53, formula: .tanaka))
        #expect(zones.bounds == [120, 133, 147, 160, 174, 187])
    }

    @Test func impossibleProfilesAreRefused() {
        #expect(throws: RuleRefusal.self) { try HeartRateProfile(age: 5, resting: 60).validated() }
        #expect(throws: RuleRefusal.self) { try HeartRateProfile(age: 40, resting: 20).validated() }
        #expect(throws: RuleRefusal.self) { try HeartRateProfile(age: 40, resting: 60, measuredMaximum: 260).validated() }
        // Maximum 100 over resting 90 leaves no room for five 5-bpm zones.
        #expect(throws: RuleRefusal.self) { try HeartRateProfile(age: 40, resting: 90, measuredMaximum: 120).validated() }
        #expect(throws: Never.self) { try HeartRateProfile(age: 40, resting: 60).validated() }
    }

    @Test func aBoundMovesTwoZonesAtOnceAndNeverBelowFiveBeats() throws {
        let zones = HeartRateZones(karvonen: HeartRateProfile(age: 40, resting: 60))
        // Bound 2 is zone 2's high and zone 3's low: raising it widens 2 and narrows 3.
        let moved = try zones.setting(bound: 2, to: 150)
        #expect(moved.zones[1] == HeartRateZones.Zone(zone: 2, low: 132, high: 150))
        #expect(moved.zones[2] == HeartRateZones.Zone(zone: 3, low: 150, high: 156))
        // The picker's range keeps both neighbours 5 bpm wide.
        #expect(zones.range(ofBound: 2) == 137...151)
        #expect(moved.range(ofBound: 3) == 155...163)
        #expect(throws: RuleRefusal.self) { try zones.setting(bound: 2, to: 152) }
        #expect(throws: RuleRefusal.self) { try zones.setting(bound: 6, to: 150) }
        // Editing a zone by its low and high moves both shared bounds, in either direction.
        let wider = try zones.setting(zone: 3, low: 140, high: 160)
        #expect(wider.bounds == [120, 132, 140, 160, 168, 180])
        let lower = try zones.setting(zone: 4, low: 150, high: 155)
        #expect(lower.bounds == [120, 132, 144, 150, 155, 180])
        #expect(throws: RuleRefusal.self) { try zones.setting(zone: 3, low: 150, high: 153) }
        #expect(throws: RuleRefusal.self) { try HeartRateZones(bounds: [120, 124, 140, 150, 160, 170]) }
        #expect(throws: Never.self) { try HeartRateZones(bounds: [120, 125, 140, 150, 160, 170]) }
    }
}
