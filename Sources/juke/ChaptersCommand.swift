import ArgumentParser
import Foundation
import MediaFormats

/// `juke chapters`: what Juke's own readers find in audiobooks and episodes, as `juke tags`
/// does for tags. JSON output is one object per file and line, for scripts and comparisons.
struct ChaptersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chapters",
        abstract: "Prints the chapters Juke reads from audio files (M4B/M4A/MP4, MP3).",
        discussion: """
            Chapters come from the QuickTime chapter track or Nero's chpl list (MP4), or ID3v2 \
            CHAP/CTOC frames (MP3). A file without chapters has one spanning the whole file. \
            With --json each file prints one line: {"file", "duration", "source", "chapters": \
            [{"title", "start", "end"}]}, times in seconds.
            """
    )

    @Argument(help: "Audio files.") var files: [String]
    @Flag(help: "One JSON object per file and line.") var json = false

    func run() async throws {
        var failed = false
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        for path in files {
            do {
                let list = try ChapterReader.read(path: path)
                if json {
                    print(String(decoding: try encoder.encode(ChapterReport(file: path, list: list)), as: UTF8.self))
                } else {
                    print("\(path): \(list.chapters.count) chapter(s) from \(list.source.rawValue), \(clock(list.duration))")
                    for (index, chapter) in list.chapters.enumerated() {
                        print("  \(index + 1). \(clock(chapter.start)) - \(clock(chapter.end))  \(chapter.title)")
                    }
                }
            } catch {
                failed = true
                FileHandle.standardError.write(Data("\(path): \(error)\n".utf8))
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// h:mm:ss.mmm, the way chapter lists are usually written.
    func clock(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        return String(format: "%d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
    }
}
