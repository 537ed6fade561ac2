import ExternalTools
import Foundation
import JukePlatform
import MediaFormats

/// Writes the spoken demo audiobook: each chapter read by espeak-ng, joined and encoded by
/// ffmpeg into an M4B with both chapter lists (QuickTime's track and Nero's `chpl`, as
/// ffmpeg writes them), so Dual Player has a book to play with no network.
struct DemoBookMaker {
    /// Why the demo could not be made, in words for the log.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let espeak: String
    let ffmpeg: String
    /// The server's tool slots: each espeak-ng and ffmpeg run waits for one.
    let slots: ToolSlots

    /// The tools on PATH, or nil with what is missing.
    static func find(slots: ToolSlots = ToolSlots(), environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<DemoBookMaker, Failure> {
        switch (ExternalTool.locate("espeak-ng", environment: environment), ExternalTool.locate("ffmpeg", environment: environment)) {
        case (let espeak?, let ffmpeg?): return .success(DemoBookMaker(espeak: espeak.path, ffmpeg: ffmpeg.path, slots: slots))
        case (nil, nil): return .failure(Failure(description: "espeak-ng and ffmpeg are not installed"))
        case (nil, _): return .failure(Failure(description: "espeak-ng is not installed"))
        case (_, nil): return .failure(Failure(description: "ffmpeg is not installed"))
        }
    }

    /// Writes the book to `path` (through a temporary file, so a half-written book is never
    /// taken for the demo). Cancelling the task ends the tool running and throws.
    func write(to path: String) async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("juke-demo-book-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var list = ""
        var metadata =
            ";FFMETADATA1\ntitle=\(escape(DemoBookText.title))\nartist=\(escape(DemoBookText.author))\nalbum=\(escape(DemoBookText.title))\ngenre=Audiobook\n"
        var start = 0
        for (index, chapter) in DemoBookText.chapters.enumerated() {
            try Task.checkCancellation()
            let wav = work.appendingPathComponent("chapter-\(index).wav").path
            try await run(espeak, ["-v", "en-gb", "-s", "150", "-w", wav, chapter.text])
            guard let seconds = try? TagReader.read(path: wav).duration, seconds > 0 else {
                throw Failure(description: "espeak-ng wrote no audio for \(chapter.title)")
            }
            let milliseconds = Int((seconds * 1000).rounded())
            metadata += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(start)\nEND=\(start + milliseconds)\ntitle=\(escape(chapter.title))\n"
            start += milliseconds
            list += "file '\(wav)'\n"
        }
        let listPath = work.appendingPathComponent("chapters.txt").path
        let metadataPath = work.appendingPathComponent("metadata.txt").path
        try list.write(toFile: listPath, atomically: true, encoding: .utf8)
        try metadata.write(toFile: metadataPath, atomically: true, encoding: .utf8)
        let partial = work.appendingPathComponent("book.m4b").path
        try await run(
            ffmpeg,
            [
                "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", listPath, "-i", metadataPath, "-map", "0", "-map_metadata", "1",
                "-map_chapters", "1", "-c:a", "aac", "-b:a", "48k", "-ac", "1", partial,
            ])
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: partial, toPath: path)
    }

    /// ffmpeg's metadata format escapes =, ;, # and \ with a backslash.
    func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            if "=;#\\".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// Runs one tool once a tool slot is free (the server's own work: it waits, never refused);
    /// a cancelled task ends it.
    func run(_ tool: String, _ arguments: [String]) async throws {
        do {
            try await slots.runWhenFree { try await ExternalTool(path: tool).run(arguments, limits: .init(deadline: .seconds(600))) }
        } catch let error as ExternalTool.Failure {
            throw Failure(description: error.description)
        }
    }
}
