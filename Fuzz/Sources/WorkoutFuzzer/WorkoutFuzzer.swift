import Foundation
import RunBeat
import Workouts

/// libFuzzer entry point: any bytes through the workout readers (FIT, TCX and GPX, chosen by
/// the bytes as an upload would be) and the strap's measurement parser must give a workout or
/// an error, never a crash or a hang. Whatever is read must be writable again as FIT and TCX,
/// and Juke's own FIT must read back with the same heart rate.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWorkoutReaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? FITDecoder.decode(bytes)
    _ = try? TCXReader.read(bytes)
    _ = try? GPXReader.read(bytes)
    _ = try? HeartRateMeasurement.parse(Array(bytes.prefix(20)))
    if let workout = try? WorkoutFile.read(bytes) {
        precondition(workout.samples.allSatisfy { $0.bpm > 0 && $0.bpm < 255 }, "a heart rate no heart has")
        let fit = FITEncoder.encode(workout)
        let back = try? WorkoutFile.read(fit)
        precondition(back?.samples.map(\.bpm) == workout.samples.map(\.bpm), "Juke's FIT did not read back")
        _ = TCXWriter.encode(workout)
    }
    return 0
}
