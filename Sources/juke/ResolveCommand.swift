import ArgumentParser
import Foundation
import JukeCore
import Matching

struct ResolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Finds the library track an \"Artist - Title\" means, as Back2Back does, or says there is none."
    )

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "The album, to break ties.") var album: String?
    @Option(name: .long, help: "The duration in seconds, to break ties.") var duration: Double?
    @Option(name: .long, help: "The ISRC: a match on it is certain.") var isrc: String?
    @Argument(help: "The artist.") var artist: String
    @Argument(help: "The title.") var title: String

    func validate() throws {
        guard !artist.trimmingCharacters(in: .whitespaces).isEmpty, !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("give an artist and a title")
        }
        if let duration, !(duration > 0 && duration < 86_400) { throw ValidationError("--duration is a number of seconds") }
    }

    func run() async throws {
        try await withServices(data) { services in
            let catalog = TrackCatalog(
                try await services.library.allTracks().map {
                    TrackResolver.Candidate(id: $0.id, artist: $0.artist, title: $0.title, album: $0.album, duration: $0.duration, isrc: $0.isrc)
                })
            let query = TrackResolver.Query(artist: artist, title: title, album: album, duration: duration, isrc: isrc)
            switch catalog.resolve(query) {
            case .match(let m):
                print(String(format: "%@ — %@  (confidence %.2f%@)", m.candidate.artist, m.candidate.title, m.confidence, m.note.isEmpty ? "" : "; \(m.note)"))
                print("track \(m.candidate.id)")
            case .noMatch(let nearest):
                print("no match in \(catalog.count) tracks; nearest:")
                for n in nearest {
                    print(String(format: "  %@ — %@  (artist %.2f, title %.2f)", n.candidate.artist, n.candidate.title, n.artistScore, n.titleScore))
                }
                throw ExitCode(1)
            }
        }
    }
}
