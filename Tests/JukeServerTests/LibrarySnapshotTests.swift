import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import Testing

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer

/// The apps that pick songs (TuneTrivia's rounds and questions, RunBeat's phases, Back2Back's
/// DJ) and the library search share one snapshot of the library: it is read once for all their
/// picks, and read again only after a scan has changed it.
@Suite(.timeLimit(.minutes(5))) struct LibrarySnapshotTests {
    @Test(arguments: TestBackend.available)
    func theLibraryIsReadOncePerChange(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let host = try await client.register("host")
            _ = try await app.addSongs(TuneTriviaAPITests.songs)
            let snapshot = app.services.platform.snapshot

            let created = try await client.json(
                .post, "/api/v1/tunetrivia/sessions/", token: host, body: #"{"title":"Friday","num_songs":5,"seconds_per_song":20}"#)
            #expect(created.status == .created, "\(created.json)")
            let base = "/api/v1/tunetrivia/sessions/\(try #require(created.json["id"] as? String))"
            let rounds = try await client.json(.post, "\(base)/rounds/auto-generate/", token: host)
            #expect(rounds.status == .ok)
            let list = try #require(rounds.json["rounds"] as? [[String: Any]])
            for round in list {
                #expect(try await client.json(.post, "\(base)/rounds/\(round["id"] as? String ?? "")/trivia", token: host).status == .ok)
            }
            let music = try await client.json(.get, "/api/v1/runbeat/music/work", token: host)
            #expect(music.status == .ok && (music.json["tracks"] as? [Any])?.count == TuneTriviaAPITests.songs.count)
            #expect(try await app.services.back2backApp.service.librarySongs().count == TuneTriviaAPITests.songs.count)
            #expect(try await client.json(.get, "/api/v1/catalog/search?q=joplin", token: host).status == .ok)
            #expect(await snapshot.loads == 1)

            // A scan that adds a song: the next pick reads the library again, once.
            _ = try await app.addSongs(TuneTriviaAPITests.songs + [("Clair de Lune", "Claude Debussy", "Impressionist", 1905)])
            #expect(try await app.services.back2backApp.service.librarySongs().count == TuneTriviaAPITests.songs.count + 1)
            #expect(try await client.json(.get, "/api/v1/runbeat/music/work", token: host).status == .ok)
            #expect(await snapshot.loads == 2)
        }
    }
}
