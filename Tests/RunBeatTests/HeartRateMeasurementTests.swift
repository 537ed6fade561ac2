import Foundation
import RunBeat
import Testing

/// The strap's notifications, every flag combination, from the vectors the page's tests read too.
@Suite(.timeLimit(.minutes(5))) struct HeartRateMeasurementTests {
    struct Vectors: Decodable {
        struct Vector: Decodable {
            let name: String
            let bytes: [UInt8]
            let bpm: Int
            let contact: String
            let energy: Int?
            let rr: [Double]
        }
        struct Failure: Decodable {
            let name: String
            let bytes: [UInt8]
            let error: String
        }
        let vectors: [Vector]
        let errors: [Failure]
    }

    static func vectors() throws -> Vectors {
        let url = try #require(Bundle.module.url(forResource: "hrm-vectors", withExtension: "json", subdirectory: "Traces"))
        return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
    }

    @Test func everyFlagCombinationReadsAsTheVectorSays() throws {
        let vectors = try Self.vectors()
        #expect(vectors.vectors.count >= 32)
        for vector in vectors.vectors {
            let m = try HeartRateMeasurement.parse(vector.bytes)
            #expect(m.bpm == vector.bpm, "\(vector.name)")
            #expect(m.contact.rawValue == vector.contact, "\(vector.name)")
            #expect(m.energyExpended == vector.energy, "\(vector.name)")
            #expect(m.rrIntervals == vector.rr, "\(vector.name)")
        }
    }

    @Test func damagedNotificationsAreRefusedWithWhatIsMissing() throws {
        for failure in try Self.vectors().errors {
            #expect(throws: HeartRateMeasurementError.self, "\(failure.name)") { try HeartRateMeasurement.parse(failure.bytes) }
            do {
                _ = try HeartRateMeasurement.parse(failure.bytes)
            } catch {
                #expect(error.description.contains(failure.error), "\(failure.name): \(error)")
            }
        }
    }

    @Test func aStrapWithoutSkinContactIsNotAHeartRate() throws {
        #expect(try HeartRateMeasurement.parse([0x04, 0]).isUsable == false)  // contact not detected, 0 bpm
        #expect(try HeartRateMeasurement.parse([0x04, 150]).isUsable == false)
        #expect(try HeartRateMeasurement.parse([0x06, 150]).isUsable)
        #expect(try HeartRateMeasurement.parse([0x00, 150]).isUsable)
        #expect(BatteryLevel.parse([87]) == 87)
        #expect(BatteryLevel.parse([101]) == nil)
        #expect(BatteryLevel.parse([]) == nil)
    }
}
