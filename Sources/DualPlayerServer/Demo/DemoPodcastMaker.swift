import Feeds
import Foundation
import JukeCore
import JukePlatform
import MediaFormats

/// Writes Juke's demo show into a folder: each episode's sentences spoken by espeak-ng into an
/// MP3 (`SpokenTrack`: each sentence's time known exactly),
/// with a WebVTT transcript (a cue per sentence), Podcasting 2.0 JSON chapters, and the RSS
/// feed that names them with server paths (`/dual/demo-podcast/1.mp3`), as a host would.
struct DemoPodcastMaker {
    let espeak: String
    let ffmpeg: String
    let slots: ToolSlots
    /// Where the server serves the folder.
    static let webPath = "/dual/demo-podcast"

    static func find(slots: ToolSlots = ToolSlots()) -> Result<DemoPodcastMaker, DemoBookMaker.Failure> {
        DemoBookMaker.find(slots: slots).map { DemoPodcastMaker(espeak: $0.espeak, ffmpeg: $0.ffmpeg, slots: slots) }
    }

    /// Writes everything into `folder` (through a temporary folder, so a half-made show is never
    /// served), `feed.xml` last. Cancelling the task ends the tool running and throws.
    func write(to folder: String, published: Date) async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("juke-demo-podcast-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var items: [String] = []
        let speaker = SpokenTrack(espeak: espeak, ffmpeg: ffmpeg, slots: slots)
        for (index, episode) in DemoPodcastText.episodes.enumerated() {
            let number = index + 1
            let sentences = episode.chapters.flatMap(\.sentences)
            let mp3 = work.appendingPathComponent("\(number).mp3").path
            let times = try await speaker.write(sentences, to: mp3, title: episode.title, artist: DemoPodcastText.author)
            let cues = zip(times, sentences).map { (start: $0.start, end: $0.end, text: $1) }
            var chapters: [(start: Double, title: String)] = []
            var first = 0
            for chapter in episode.chapters {
                chapters.append((first < times.count ? times[first].start : 0, chapter.title))
                first += chapter.sentences.count
            }
            let at = times.last?.end ?? 0
            try vtt(cues).write(to: work.appendingPathComponent("\(number).vtt"), atomically: true, encoding: .utf8)
            try chaptersJSON(chapters).write(to: work.appendingPathComponent("\(number).json"), atomically: true, encoding: .utf8)
            let size = (try? FileManager.default.attributesOfItem(atPath: mp3)[.size] as? NSNumber)?.int64Value ?? 0
            let date = FeedDate.rfc822String(published.addingTimeInterval(Double(index) * 86_400))
            items.insert(
                """
                    <item>
                      <title>\(Markup.escape(episode.title))</title>
                      <guid isPermaLink="false">juke-demo-podcast-\(number)</guid>
                      <pubDate>\(date)</pubDate>
                      <description>\(Markup.escape(episode.summary))</description>
                      <enclosure url="\(Self.webPath)/\(number).mp3" type="audio/mpeg" length="\(size)"/>
                      <itunes:duration>\(Int(at.rounded()))</itunes:duration>
                      <itunes:episode>\(number)</itunes:episode>
                      <podcast:chapters url="\(Self.webPath)/\(number).json" type="application/json+chapters"/>
                      <podcast:transcript url="\(Self.webPath)/\(number).vtt" type="text/vtt"/>
                    </item>
                """, at: 0)
        }
        let feed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
              <channel>
                <title>\(Markup.escape(DemoPodcastText.title))</title>
                <link>/dual</link>
                <language>en</language>
                <description>\(Markup.escape(DemoPodcastText.summary))</description>
                <itunes:author>\(DemoPodcastText.author)</itunes:author>
                <itunes:type>episodic</itunes:type>
            \(items.joined(separator: "\n"))
              </channel>
            </rss>

            """
        try feed.write(to: work.appendingPathComponent("feed.xml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { !$0.hasSuffix(".wav") && !$0.hasSuffix(".txt") }
        for name in names.sorted(by: { a, _ in a != "feed.xml" }) {
            let target = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
            try FileManager.default.moveItem(atPath: work.appendingPathComponent(name).path, toPath: target)
        }
    }

    func vtt(_ cues: [(start: Double, end: Double, text: String)]) -> String {
        func stamp(_ seconds: Double) -> String {
            let ms = Int((seconds * 1000).rounded())
            return String(format: "%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60000 % 60, ms / 1000 % 60, ms % 1000)
        }
        return "WEBVTT\n\n"
            + cues.enumerated().map { "\($0.offset + 1)\n\(stamp($0.element.start)) --> \(stamp($0.element.end))\n\($0.element.text)\n" }
            .joined(separator: "\n")
    }

    func chaptersJSON(_ chapters: [(start: Double, title: String)]) throws -> String {
        let list: [[String: Any]] = chapters.map { ["startTime": ($0.start * 1000).rounded() / 1000, "title": $0.title] }
        let data = try JSONSerialization.data(withJSONObject: ["version": "1.2.0", "chapters": list], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
