import Feeds
import Foundation

/// `JukeBench feeds <file> [rounds]`: one feed read from memory `rounds` times in 64 kB
/// pieces, as the server reads a download; the median and best time and the throughput.
/// Scripts/bench-feeds.sh runs feedparser on the same file in the same run.
enum FeedsBench {
    static func run(_ path: String, rounds: Int) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var times: [Double] = []
        var items = 0
        let clock = ContinuousClock()
        for _ in 0..<max(1, rounds) {
            var count = 0
            let start = clock.now
            let reader = FeedReader { _ in count += 1 }
            var i = 0
            while i < bytes.count {
                try reader.read(bytes[i..<min(bytes.count, i + 65_536)])
                i += 65_536
            }
            _ = try reader.finish()
            times.append(seconds(clock.now - start) * 1000)
            items = count
        }
        times.sort()
        let median = times[times.count / 2]
        print(
            String(
                format: "juke feed: %d items from %.1f MB; median %.1f ms, best %.1f ms (%d rounds); %.0f MB/s",
                items, Double(bytes.count) / 1e6, median, times[0], times.count, Double(bytes.count) / 1e6 / (median / 1000)))
    }
}
