import ArgumentParser
import Foundation
import MediaFormats

struct TagsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags", abstract: "Prints the tags Juke reads from audio files (--json: one object a file, for scripts).")

    @Argument(help: "Audio files.") var files: [String]
    @Flag(name: .long, help: "One JSON object per file and line: the fields read, or {\"path\", \"error\"}.") var json = false

    func run() async throws {
        var failed = false
        for path in files {
            do {
                let m = try TagReader.read(path: path)
                if json {
                    print(Self.json(path: path, m))
                    continue
                }
                print(path)
                for (name, value) in Self.fields(m) { if let value { print("  \(name): \(value)") } }
                for warning in m.warnings { print("  warning: \(warning)") }
            } catch {
                failed = true
                if json {
                    print(Self.line(["path": path, "error": "\(error)"]))
                } else {
                    print("\(path): \(error)")
                }
            }
        }
        if failed { throw ExitCode(1) }
    }

    static func fields(_ m: AudioMetadata) -> [(String, String?)] {
        [
            ("format", m.format.rawValue + (m.codec.map { " (\($0))" } ?? "")), ("title", m.title), ("artist", m.artist), ("album", m.album),
            ("album artist", m.albumArtist), ("composer", m.composer), ("genre", m.genre), ("year", m.year.map(String.init)),
            ("track", m.trackNumber.map { "\($0)" + (m.trackTotal.map { "/\($0)" } ?? "") }),
            ("disc", m.discNumber.map { "\($0)" + (m.discTotal.map { "/\($0)" } ?? "") }),
            ("duration", m.duration.map { String(format: "%.3f s", $0) }), ("sample rate", m.sampleRate.map(String.init)),
            ("channels", m.channels.map(String.init)), ("isrc", m.isrc), ("musicbrainz", m.musicBrainzRecordingID),
            ("artwork", m.frontCover.map { "\($0.mimeType), \($0.data.count) bytes" }),
        ]
    }

    /// snake_case names; fields the file lacks are left out.
    static func json(path: String, _ m: AudioMetadata) -> String {
        var object: [String: Any] = ["path": path, "format": m.format.rawValue]
        let texts: [(String, String?)] = [
            ("title", m.title), ("artist", m.artist), ("album", m.album), ("album_artist", m.albumArtist), ("composer", m.composer),
            ("genre", m.genre), ("isrc", m.isrc), ("musicbrainz_recording_id", m.musicBrainzRecordingID), ("codec", m.codec),
        ]
        for (key, value) in texts { if let value { object[key] = value } }
        let numbers: [(String, Int?)] = [
            ("year", m.year), ("track", m.trackNumber), ("track_total", m.trackTotal), ("disc", m.discNumber), ("disc_total", m.discTotal),
            ("sample_rate", m.sampleRate), ("channels", m.channels), ("bitrate", m.bitrate),
        ]
        for (key, value) in numbers { if let value { object[key] = value } }
        if let duration = m.duration { object["duration"] = duration }
        if let bpm = m.bpm { object["bpm"] = bpm }
        if !m.artwork.isEmpty { object["artwork"] = m.artwork.map { ["mime_type": $0.mimeType, "bytes": $0.data.count] } }
        if !m.warnings.isEmpty { object["warnings"] = m.warnings }
        return line(object)
    }

    static func line(_ object: [String: Any]) -> String {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])).flatMap {
            String(data: $0, encoding: .utf8)
        } ?? "{}"
    }
}
