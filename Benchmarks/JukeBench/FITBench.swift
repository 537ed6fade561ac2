import Foundation
import Workouts

/// `JukeBench fit <file list> [rounds]`: the FIT files named one per line in the list, each
/// decoded whole (every message, every field) and read as a workout from memory `rounds`
/// times; the median round. Scripts/bench-fit.sh runs fitparse and fitdecode on the same
/// files in the same run.
enum FITBench {
    static func run(_ list: String, rounds: Int) throws {
        let paths = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").map(String.init)
        let files = try paths.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) }
        var times: [Double] = []
        var messages = 0
        var samples = 0
        let clock = ContinuousClock()
        for _ in 0..<max(1, rounds) {
            messages = 0
            samples = 0
            let start = clock.now
            for file in files {
                guard let decoded = try? FITDecoder.decode(file) else { continue }
                messages += decoded.messages.count
                samples += FITWorkout.workout(from: decoded).samples.count
            }
            times.append(seconds(clock.now - start) * 1000)
        }
        times.sort()
        let megabytes = Double(files.reduce(0) { $0 + $1.count }) / 1e6
        print(
            String(
                format: "juke: %d files (%.1f MB), %d messages, %d heart-rate records; median %.2f ms, best %.2f ms (%d rounds)",
                files.count, megabytes, messages, samples, times[times.count / 2], times[0], times.count))
    }
}
