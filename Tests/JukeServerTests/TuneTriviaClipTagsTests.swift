import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import NIOCore
import Testing

@testable import JukeServer

/// The host's clip and the big screen's are the song's audio without the file's tags: a
/// tagged file's own bytes would give the title and artist to whoever reads them before the
/// reveal. (ffmpeg copies the audio without them; Scripts/test.sh installs it.)
@Suite(.timeLimit(.minutes(5))) struct TuneTriviaClipTagsTests {
    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let bytes = Array(needle.utf8)
        guard bytes.count <= haystack.count else { return false }
        return (0...(haystack.count - bytes.count)).contains { haystack[$0..<($0 + bytes.count)].elementsEqual(bytes) }
    }

    @Test(arguments: TestBackend.available)
    func theHostsClipHoldsNoTitleArtistOrCover(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let (host, _, base) = try await TuneTriviaAPITests.startedGame(app, client, players: ["ann"])
            let round = try #require(try await client.json(.get, "\(base)/state", token: host).json["round"] as? [String: Any])
            let title = try #require(round["title"] as? String)
            let artist = try #require(round["artist"] as? String)
            let clipURL = try #require(round["clip_url"] as? String)

            // The fixture's file does say both (so the check below can fail).
            let folder = app.services.configuration.dataDirectory + "/music"
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).map {
                [UInt8](FileManager.default.contents(atPath: "\(folder)/\($0)") ?? Data())
            }
            #expect(files.contains { Self.contains($0, title) && Self.contains($0, artist) })

            let clip = try await client.json(.get, clipURL, token: host)
            #expect(clip.status == .ok, "\(clip.json)")
            let bytes = Array(clip.raw.readableBytesView)
            #expect(bytes.count > 1000 && bytes.starts(with: Array("RIFF".utf8)), "the song's audio, in its own container")
            #expect(!Self.contains(bytes, title) && !Self.contains(bytes, artist) && !Self.contains(bytes, "\(artist) Hits"), "no tags")
            #expect(!Self.contains(bytes, "ID3") && !Self.contains(bytes, "APIC"), "no tag block, no cover")
            // Ranges still work on it, for the player's seeking.
            let part = try await client.json(.get, clipURL, token: host, headers: [.range: "bytes=0-99"])
            #expect(part.status == .partialContent && part.raw.readableBytes == 100)
        }
    }
}
