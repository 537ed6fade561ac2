import Foundation
import Testing

@testable import DualPlayer

/// Ducking between sentences: word gaps keep music down, a sentence gap brings it back, and
/// the threshold follows the narrator. The same table tests the web client's copy.
@Suite(.timeLimit(.minutes(5))) struct SpeechActivityTests {
    struct Table: Decodable {
        struct Case: Decodable {
            let `case`: String
            let samples: [[Double]]
            let talking: [Bool]
        }
        let cases: [Case]
    }

    @Test func theSharedTable() throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/speech-gaps", withExtension: "json"))
        let table = try JSONDecoder().decode(Table.self, from: Data(contentsOf: url))
        #expect(!table.cases.isEmpty)
        for entry in table.cases {
            var activity = SpeechActivity()
            for (index, sample) in entry.samples.enumerated() {
                let talking = activity.sample(time: sample[0], level: sample[1])
                #expect(talking == entry.talking[index], "\(entry.case): sample \(index) at \(sample[0]) s, \(sample[1]) dB")
            }
        }
    }

    @Test func badReadingsChangeNothingOrCountAsSilence() {
        var activity = SpeechActivity()
        activity.sample(time: 0, level: -10)
        #expect(activity.sample(time: .nan, level: -90) == true, "a reading with no time is ignored")
        #expect(activity.sample(time: 0.05, level: .nan) == true, "a level that is not a number is silence, which needs the gap")
        #expect(activity.sample(time: 0.5, level: -.infinity) == false)
        #expect(activity.sample(time: 0.55, level: 40) == true, "above 0 dBFS is clamped, still talking")
        activity.reset()
        #expect(activity == SpeechActivity())
    }

    @Test func musicComesBackOnlyWhenDuckingIsOn() {
        #expect(Ducking(enabled: true, level: 0.25).musicGain(speechTalking: true) == 0.25)
        #expect(Ducking(enabled: true, level: 0.25).musicGain(speechTalking: false) == 1)
        #expect(Ducking.off.musicGain(speechTalking: true) == 1)
    }
}
