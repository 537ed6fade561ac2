import Articles
import Foundation

/// `JukeBench articles <folder> [rounds]`: every saved page of a folder (.html) extracted from
/// memory `rounds` times; the median round and the pages per second.
/// Scripts/bench-articles.sh runs readability-lxml on the same pages in the same run.
enum ArticlesBench {
    static func run(_ folder: String, rounds: Int) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".html") }.sorted()
        let pages = try names.map { Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))) }
        var times: [Double] = []
        var words = 0
        let clock = ContinuousClock()
        for _ in 0..<max(1, rounds) {
            var count = 0
            let start = clock.now
            for page in pages { count += (try? ArticleExtractor.extract(html: page).wordCount) ?? 0 }
            times.append(seconds(clock.now - start) * 1000)
            words = count
        }
        times.sort()
        let median = times[times.count / 2]
        let megabytes = Double(pages.reduce(0) { $0 + $1.count }) / 1e6
        print(
            String(
                format: "juke article: %d pages (%.1f MB), %d words; median %.1f ms, best %.1f ms (%d rounds); %.0f pages/s",
                pages.count, megabytes, words, median, times[0], times.count, Double(pages.count) / (median / 1000)))
    }
}
