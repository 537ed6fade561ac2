import Foundation
import JukeCore
import RunBeat
import Testing

/// A summary accounts for every second of a workout (the issue's 28:00 of zones in a 38:00
/// run: ten minutes below zone 1 were not listed), and leaves out heart rates no heart has
/// (a flipped byte's 249 bpm) as live training does, saying how many.
@Suite(.timeLimit(.minutes(2))) struct SummaryAccountingTests {
    // Age 40, resting 60: zones from 120, 132, 144, 156, 168 up to 180.
    let zones = HeartRateZones(karvonen: HeartRateProfile(age: 40, resting: 60))

    func summary(_ samples: [(time: Double, bpm: Int)], seconds: Double) -> WorkoutSummary {
        WorkoutSummary.make(samples: samples, seconds: seconds, zones: zones, plan: .free, targets: [nil], grace: 45)
    }

    @Test func belowAboveAndUnknownTimeAddUpToTheWorkout() {
        // 38 minutes: 10 below zone 1 (an easy start), 26 in zone 3, a minute of silence (the
        // strap slipped), 30 s over the maximum, the last 30 s in zone 4.
        var samples: [(time: Double, bpm: Int)] = []
        for t in 0..<600 { samples.append((Double(t), 100)) }
        for t in 600..<2160 { samples.append((Double(t), 150)) }
        for t in 2220..<2250 { samples.append((Double(t), 185)) }
        for t in 2250..<2280 { samples.append((Double(t), 160)) }
        let s = summary(samples, seconds: 2280)
        #expect(s.belowZonesSeconds == 600)
        #expect(s.zoneSeconds == [0, 0, 1559 + 5, 30, 0])  // the last sample before the silence holds 5 s
        #expect(s.aboveZonesSeconds == 30)
        #expect(s.noHeartRateSeconds == 56)
        #expect(s.belowZonesSeconds + s.zoneSeconds.reduce(0, +) + s.aboveZonesSeconds + s.noHeartRateSeconds == 2280)
    }

    @Test func overTheMaximumIsAboveZoneFiveNotInIt() {
        let samples: [(time: Double, bpm: Int)] = (0..<60).map { (Double($0), $0 < 30 ? 175 : 190) }
        let s = summary(samples, seconds: 60)
        #expect(s.zoneSeconds[4] == 30)
        #expect(s.aboveZonesSeconds == 30)
        #expect(s.noHeartRateSeconds == 0)
        #expect(abs(s.zoneSeconds.reduce(0, +) + s.aboveZonesSeconds - 60) < 0.001)
    }

    @Test func samplesOutsideThirtyToTwoFortyAreLeftOutAndCounted() {
        var samples: [(time: Double, bpm: Int)] = (0..<120).map { (Double($0), 140) }
        samples[50].bpm = 249  // a byte flipped in a damaged FIT file
        samples[51].bpm = 255  // a strap's "no reading"
        samples[52].bpm = 12
        let s = summary(samples, seconds: 120)
        #expect(s.peakHeartRate == 140)
        #expect(s.droppedSamples == 3)
        #expect(s.samples == 117)
        #expect(PlausibleHeartRate.contains(30) && PlausibleHeartRate.contains(240))
        #expect(!PlausibleHeartRate.contains(29) && !PlausibleHeartRate.contains(241))
    }

    @Test func aSummaryStoredBeforeTheseCountsReadsAsNone() throws {
        let old = #"{"seconds":60,"samples":60,"averageHeartRate":140,"peakHeartRate":150,"zoneSeconds":[0,60,0,0,0],"belowZonesSeconds":0,"intervals":[]}"#
        let s = try JSONDecoder().decode(WorkoutSummary.self, from: Data(old.utf8))
        #expect(s.zoneSeconds[1] == 60 && s.aboveZonesSeconds == 0 && s.noHeartRateSeconds == 0 && s.droppedSamples == 0)
        let again = try JSONDecoder().decode(WorkoutSummary.self, from: try JSONEncoder().encode(summary([(0, 190)], seconds: 1)))
        #expect(again.aboveZonesSeconds == 1)
    }
}
