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

/// GPX export: a route with heart rate, or a clear refusal when the workout has no route.
@Suite(.timeLimit(.minutes(2))) struct GPXWriterTests {
    /// The workout with a position every second along a straight line north from Greenwich.
    static func withRoute() -> RecordedWorkout {
        var workout = WorkoutWriterTests.workout()
        workout.positions = workout.samples.enumerated().map { index, sample in
            TrackPosition(time: sample.time, latitude: 51.4779 + Double(index) * 0.00003, longitude: -0.0015, elevation: 46)
        }
        return workout
    }

    @Test func aGPXExportReadsBackTheSame() throws {
        let original = Self.withRoute()
        let bytes = try GPXWriter.encode(original)
        #expect(WorkoutFile.format(of: bytes) == .gpx)
        let back = try WorkoutFile.read(bytes)
        #expect(back.format == .gpx)
        #expect(back.samples == original.samples)
        #expect(back.start == original.start)
        #expect(back.sport == "running")
        #expect(back.duration == 599)  // first point to last: GPX has no session length
        #expect(back.damage == nil)
        #expect(back.positions.count == 600)
        #expect(back.positions.first.map { abs($0.latitude - 51.4779) < 1e-6 && abs($0.longitude + 0.0015) < 1e-6 && $0.elevation == 46 } == true)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("<gpxtpx:hr>110</gpxtpx:hr>"))
        // Every track point has the position GPX requires.
        #expect(text.components(separatedBy: "<trkpt ").count - 1 == 600)
        #expect(text.components(separatedBy: "<trkpt lat=\"").count - 1 == 600)
    }

    @Test func aWorkoutWithoutPositionsIsRefusedNotWrittenWithoutThem() {
        // 2,219 heart-rate samples and no position: the file apps refused.
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let samples = (0..<2219).map { HeartRateSample(time: start.addingTimeInterval(Double($0)), bpm: 140) }
        let workout = RecordedWorkout(format: .fit, sport: "running", start: start, duration: 2219, samples: samples)
        #expect(throws: GPXWriter.Refusal.noPositions) { try GPXWriter.encode(workout) }
        // Positions outside the earth's ranges are none either.
        var nowhere = workout
        nowhere.positions = [TrackPosition(time: start, latitude: 91, longitude: 0)]
        #expect(throws: GPXWriter.Refusal.noPositions) { try GPXWriter.encode(nowhere) }
    }

    @Test func aPositionFarFromAnySampleHasNoHeartRate() throws {
        var workout = Self.withRoute()
        workout.samples = Array(workout.samples.prefix(10))
        let text = String(decoding: try GPXWriter.encode(workout), as: UTF8.self)
        // Samples at 0...9 s reach the positions at 0...14 s, none after.
        #expect(text.components(separatedBy: "<gpxtpx:hr>").count - 1 == 15)
    }
}
