import Foundation
import Testing

@testable import Workouts

/// Juke's FIT reader on python-fitparse's test files (MIT), with their record CSVs as the oracle.
@Suite(.timeLimit(.minutes(5))) struct FITReaderTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/fitparse/\(name)"))
        return Array(try Data(contentsOf: url))
    }

    /// The heart_rate column of a records CSV, in order, without blanks and zeros.
    static func oracle(_ name: String) throws -> [Int] {
        let text = String(decoding: try fixture(name), as: UTF8.self)
        var lines = text.split(whereSeparator: \.isNewline)
        let header = lines.removeFirst().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let column = try #require(header.firstIndex { $0.hasPrefix("heart") })
        return lines.compactMap { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count > column, let bpm = Int(cells[column]), bpm > 0 else { return nil }
            return bpm
        }
    }

    @Test(arguments: [
        "garmin-edge-500-activity", "garmin-edge-820-bike", "garmin-fenix-5-bike", "garmin-fenix-5-run", "garmin-fenix-5-walk",
        "compressed-speed-distance",
    ])
    func heartRateRecordsAgreeWithTheCSVs(name: String) throws {
        let workout = try WorkoutFile.read(try Self.fixture("\(name).fit"))
        let expected = try Self.oracle("\(name)-records.csv")
        #expect(!expected.isEmpty)
        #expect(workout.samples.map(\.bpm) == expected)
        #expect(workout.damage == nil)
    }

    @Test func compressedTimestampsAreRebuiltFromTheLastFullOne() throws {
        // The CSV's first column is the raw FIT time; records between full timestamps carry a 5-bit offset.
        let text = String(decoding: try Self.fixture("compressed-speed-distance-records.csv"), as: UTF8.self)
        let times = text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line -> Double? in
            let cells = line.split(separator: ",")
            guard cells.count > 1, let t = Double(cells[0]), Int(cells[1]) ?? 0 > 0 else { return nil }
            return t + FITDecoder.epoch
        }
        let workout = try WorkoutFile.read(try Self.fixture("compressed-speed-distance.fit"))
        #expect(workout.samples.map(\.time.timeIntervalSince1970) == times)
    }

    @Test func everyFileIsReadOrRefusedWithoutACrash() throws {
        let folder = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/fitparse"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.lowercased().hasSuffix(".fit") }
        #expect(names.count >= 40)
        var read = 0
        for name in names {
            if (try? WorkoutFile.read(try Self.fixture(name))) != nil { read += 1 }
        }
        #expect(read == names.count)
    }

    @Test func aMultisportDayAndDeveloperFieldsAreRead() throws {
        let multisport = try WorkoutFile.read(try Self.fixture("activity-large-fenxi2-multisport.fit"))
        #expect(multisport.samples.count == 24227)
        #expect(multisport.samples == multisport.samples.sorted { $0.time < $1.time })
        let developer = try WorkoutFile.read(try Self.fixture("developer-types-sample.fit"))
        #expect(developer.samples.count == 3424)
        let chained = try FITDecoder.decode(try Self.fixture("sample_mulitple_header.fit"))
        #expect(chained.files > 1)
        let run = try WorkoutFile.read(try Self.fixture("activity-small-fenix2-run.fit"))
        #expect(run.sport == "running")
        #expect(run.laps.count == 4)
        #expect(run.start == Date(timeIntervalSince1970: 1_439_649_908))  // 2015-08-15T14:45:08Z
        #expect(abs(run.duration - 2832) < 1)
    }

    @Test func damageIsReportedAndWhatCameBeforeItKept() throws {
        let cut = try WorkoutFile.read(try Self.fixture("activity-unexpected-eof.fit"))
        #expect(cut.damage?.contains("cut short") == true)
        #expect(cut.sport == "running")
        let crc = try FITDecoder.decode(try Self.fixture("activity-filecrc.fit"))
        #expect(crc.checksumMismatch)
        #expect(try WorkoutFile.read(try Self.fixture("activity-filecrc.fit")).damage?.contains("checksum") == true)
        let header = try WorkoutFile.read(try Self.fixture("activity-settings-corruptheader.fit"))
        #expect(header.damage?.contains("not a FIT file") == true)
        let undefined = try WorkoutFile.read(try Self.fixture("strava-android-app-201.10-b1218918.fit"))
        #expect(undefined.damage?.contains("never defined") == true)
        // A whole file reads clean.
        #expect(try FITDecoder.decode(try Self.fixture("activity-settings.fit")).checksumMismatch == false)
    }

    @Test func filesWithNothingReadableAreRefusedClearly() throws {
        let whole = try Self.fixture("activity-settings.fit")
        let cases: [([UInt8], String)] = [
            ([], "empty"),
            (Array("not a workout at all".utf8), "not a FIT, TCX or GPX"),
            ([5] + Array(whole[1..<12]) + [0xFF], "not a FIT file"),  // a 5-byte header
            (Array(whole.prefix(12)) + [0xFF], "damaged before its first message"),  // a message never defined
            (Array(whole.prefix(14)) + [0x40, 0x00], "damaged before its first message"),
            (Array(whole.prefix(14)), "cut short"),
        ]
        for (bytes, why) in cases {
            do {
                let workout = try WorkoutFile.read(bytes)
                Issue.record("read \(bytes.count) bytes as \(workout)")
            } catch {
                #expect(error.description.contains(why), "\(error)")
            }
        }
    }

    @Test func bigEndianFieldsAndArraysAreRead() throws {
        // A hand-made file: a record definition in big-endian with a timestamp, heart rate and
        // a 3-value uint16 array, then one record.
        var body: [UInt8] = [0x40, 0, 1, 0, 20, 3, 253, 4, 0x86, 3, 1, 0x02, 99, 6, 0x84]
        body += [0x00, 0x3B, 0x9A, 0xCA, 0x00, 150, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x02]
        var header: [UInt8] = [12, 0x10, 0x64, 0x00, UInt8(body.count), 0, 0, 0] + Array(".FIT".utf8)
        header += body
        let crc = FITCRC.checksum(header)
        let file = try FITDecoder.decode(header + [UInt8(crc & 0xFF), UInt8(crc >> 8)])
        #expect(!file.checksumMismatch)
        let record = try #require(file.messages.first)
        #expect(record.global == 20)
        #expect(record.timestamp == 1_000_000_000)
        #expect(record[3] == .uint(150))
        #expect(record[99] == .array([.uint(256), .none, .uint(2)]))
    }
}
