import Foundation
import MediaFormats

/// `JukeBench chapters <file> [rounds]`: the chapters of one file read `rounds` times (warm
/// cache, open to close each time), the median and p90 per read, and the bytes one read costs.
/// Scripts/bench-chapters.sh runs ffprobe and mutagen on the same file in the same run, and
/// compares the chapters with ffprobe's.
enum ChaptersBench {
    /// `jsonOut`, when given, receives the chapters as `juke chapters --json` prints them.
    static func run(_ path: String, rounds: Int, jsonOut: String?) throws {
        let counting = CountingSource(try FileSource(path: path))
        let list = try ChapterReader.read(counting)
        var times: [Double] = []
        times.reserveCapacity(rounds)
        let clock = ContinuousClock()
        for _ in 0..<rounds {
            let start = clock.now
            _ = try ChapterReader.read(path: path)
            times.append(seconds(clock.now - start) * 1000)
        }
        if let jsonOut {
            try JSONEncoder().encode(ChapterReport(file: path, list: list)).write(to: URL(fileURLWithPath: jsonOut))
        }
        times.sort()
        let median = times[times.count / 2]
        let p90 = times[min(times.count - 1, times.count * 9 / 10)]
        print(
            String(
                format: "juke chapters: %d chapters from %@ in %.0f s of audio; median %.4f ms, p90 %.4f ms per file (%d rounds); %d bytes in %d reads",
                list.chapters.count, list.source.rawValue, list.duration, median, p90, rounds, counting.bytesRead, counting.reads))
    }
}
