import ArgumentParser
import Foundation
import MediaFormats

struct TagsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tags", abstract: "Prints the tags Juke reads from audio files.")

    @Argument(help: "Audio files.") var files: [String]

    func run() async throws {
        var failed = false
        for path in files {
            do {
                let m = try TagReader.read(path: path)
                print(path)
                let fields: [(String, String?)] = [
                    ("format", m.format.rawValue), ("title", m.title), ("artist", m.artist), ("album", m.album),
                    ("album artist", m.albumArtist), ("composer", m.composer), ("genre", m.genre), ("year", m.year.map(String.init)),
                    ("track", m.trackNumber.map { "\($0)" + (m.trackTotal.map { "/\($0)" } ?? "") }),
                    ("disc", m.discNumber.map { "\($0)" + (m.discTotal.map { "/\($0)" } ?? "") }),
                    ("duration", m.duration.map { String(format: "%.3f s", $0) }), ("sample rate", m.sampleRate.map(String.init)),
                    ("channels", m.channels.map(String.init)), ("isrc", m.isrc), ("musicbrainz", m.musicBrainzRecordingID),
                    ("artwork", m.frontCover.map { "\($0.mimeType), \($0.data.count) bytes" }),
                ]
                for (name, value) in fields { if let value { print("  \(name): \(value)") } }
            } catch {
                failed = true
                print("\(path): \(error)")
            }
        }
        if failed { throw ExitCode(1) }
    }
}
