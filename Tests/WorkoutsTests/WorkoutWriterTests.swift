import Foundation
import Testing

@testable import Workouts

@Suite(.timeLimit(.minutes(5))) struct WorkoutWriterTests {
    static func workout() -> RecordedWorkout {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let samples = (0..<600).map { HeartRateSample(time: start.addingTimeInterval(Double($0)), bpm: 110 + $0 / 10) }
        let laps = [
            WorkoutLap(start: start, duration: 300, intensity: .warmup), WorkoutLap(start: start.addingTimeInterval(300), duration: 240, intensity: .active),
            WorkoutLap(start: start.addingTimeInterval(540), duration: 60, intensity: .rest),
        ]
        return RecordedWorkout(format: .fit, sport: "running", start: start, duration: 600, samples: samples, laps: laps)
    }

    @Test func aFITExportReadsBackTheSame() throws {
        let original = Self.workout()
        let bytes = FITEncoder.encode(original)
        let file = try FITDecoder.decode(bytes)
        #expect(!file.checksumMismatch)
        #expect(file.damage == nil)
        let back = try WorkoutFile.read(bytes)
        #expect(back.samples == original.samples)
        #expect(back.laps == original.laps)
        #expect(back.start == original.start)
        #expect(back.duration == 600)
        #expect(back.sport == "running")
    }

    @Test func aTCXExportReadsBackTheSame() throws {
        let original = Self.workout()
        let back = try WorkoutFile.read(TCXWriter.encode(original))
        #expect(back.format == .tcx)
        #expect(back.samples == original.samples)
        #expect(back.laps.map(\.start) == original.laps.map(\.start))
        #expect(back.laps.map(\.duration) == original.laps.map(\.duration))
        #expect(back.laps[2].intensity == .rest)
        #expect(back.sport == "running")
        #expect(back.duration == 600)
        #expect(back.damage == nil)
    }

    @Test func anEmptyWorkoutStillWritesValidFiles() throws {
        let empty = RecordedWorkout(format: .fit, start: Date(timeIntervalSince1970: 1_700_000_000), duration: 0, samples: [])
        let file = try FITDecoder.decode(FITEncoder.encode(empty))
        #expect(!file.checksumMismatch)
        #expect(try WorkoutFile.read(TCXWriter.encode(empty)).samples.isEmpty)
    }
}

/// GPX export: RunBeat imported GPX but could not write it.
@Suite(.timeLimit(.minutes(2))) struct GPXWriterTests {
    @Test func aGPXExportReadsBackTheSame() throws {
        let original = WorkoutWriterTests.workout()
        let bytes = GPXWriter.encode(original)
        #expect(WorkoutFile.format(of: bytes) == .gpx)
        let back = try WorkoutFile.read(bytes)
        #expect(back.format == .gpx)
        #expect(back.samples == original.samples)
        #expect(back.start == original.start)
        #expect(back.sport == "running")
        #expect(back.duration == 599)  // first point to last: GPX has no session length
        #expect(back.damage == nil)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("<gpxtpx:hr>110</gpxtpx:hr>"))
        #expect(!text.contains("lat="))  // no made-up position
    }

    @Test func anEmptyWorkoutWritesAValidGPX() throws {
        let empty = RecordedWorkout(format: .fit, sport: "a<b", start: Date(timeIntervalSince1970: 1_700_000_000), duration: 0, samples: [])
        let back = try WorkoutFile.read(GPXWriter.encode(empty))
        #expect(back.samples.isEmpty && back.damage == nil && back.sport == "a<b")
    }
}
