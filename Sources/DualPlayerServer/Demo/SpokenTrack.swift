import ExternalTools
import Foundation
import JukePlatform
import MediaFormats

/// Text spoken by espeak-ng into one MP3, sentence by sentence so that each sentence's time in
/// the audio is known exactly (for highlighting it as it is heard): the demo show's episodes
/// and articles read aloud on the server.
struct SpokenTrack {
    let espeak: String
    let ffmpeg: String
    /// The server's tool slots: each espeak-ng and ffmpeg run waits for one.
    let slots: ToolSlots

    static func find(slots: ToolSlots = ToolSlots()) -> Result<SpokenTrack, DemoBookMaker.Failure> {
        DemoBookMaker.find(slots: slots).map { SpokenTrack(espeak: $0.espeak, ffmpeg: $0.ffmpeg, slots: slots) }
    }

    /// Speaks `sentences` into `mp3` (through a temporary folder); returns each sentence's start
    /// and end in seconds. `progress` hears how many are done.
    func write(
        _ sentences: [String], to mp3: String, voice: String = "en-us", wordsPerMinute: Int = 160, title: String, artist: String,
        progress: (Int) -> Void = { _ in }
    ) async throws -> [(start: Double, end: Double)] {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("juke-spoken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var list = ""
        var times: [(start: Double, end: Double)] = []
        var at = 0.0
        for (index, sentence) in sentences.enumerated() {
            try Task.checkCancellation()
            let wav = work.appendingPathComponent("\(index).wav").path
            try await run(espeak, ["-v", voice, "-s", String(wordsPerMinute), "-w", wav, "--", sentence])
            guard let seconds = try? TagReader.read(path: wav).duration, seconds > 0 else {
                throw DemoBookMaker.Failure(description: "espeak-ng wrote no audio for sentence \(index + 1)")
            }
            times.append((at, at + seconds))
            at += seconds
            list += "file '\(wav)'\n"
            progress(index + 1)
        }
        let listPath = work.appendingPathComponent("list.txt").path
        try list.write(toFile: listPath, atomically: true, encoding: .utf8)
        let partial = work.appendingPathComponent("out.mp3").path
        try await run(
            ffmpeg,
            [
                "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", listPath, "-c:a", "libmp3lame", "-b:a", "48k", "-ac", "1", "-ar", "22050",
                "-metadata", "title=\(title)", "-metadata", "artist=\(artist)", partial,
            ])
        try FileManager.default.createDirectory(atPath: (mp3 as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: mp3) { try FileManager.default.removeItem(atPath: mp3) }
        try FileManager.default.moveItem(atPath: partial, toPath: mp3)
        return times
    }

    /// Runs one tool once a tool slot is free (speech is made in the background: it waits,
    /// never refused); a cancelled task ends it.
    func run(_ tool: String, _ arguments: [String]) async throws {
        do {
            try await slots.runWhenFree { try await ExternalTool(path: tool).run(arguments, limits: .init(deadline: .seconds(600))) }
        } catch let error as ExternalTool.Failure {
            throw DemoBookMaker.Failure(description: error.description)
        }
    }
}
