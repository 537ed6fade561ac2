import Foundation
import JukeCore
import JukeTestSupport
import Testing

@testable import JukePlatform
@testable import JukeServer

/// Search never waits for the index: while it is built the database answers, with the same
/// tracks; a scan's changes reach the index in place, without building it again.
@Suite(.timeLimit(.minutes(5))) struct CatalogSearchReadinessTests {
    /// Holds builds until opened.
    actor Gate {
        private var open = false
        private var waiters: [CheckedContinuation<Void, Never>] = []
        func wait() async {
            if open { return }
            await withCheckedContinuation { waiters.append($0) }
        }
        func release() {
            open = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }

    static let queries = ["zombies", "take me", "b", "electronic", "1997", "the", "hits"]

    @Test(arguments: TestBackend.available)
    func aSearchDuringABuildAnswersFromTheDatabase(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, _ in
            _ = try await app.addSongs(CatalogPagesAPITests.songs)
            let platform = app.services.platform
            let gate = Gate()
            let search = CatalogSearch(store: platform.library, background: platform.background, logger: platform.logger) { await gate.wait() }
            await search.prepare()
            var during: [String: CatalogSearch.Answer] = [:]
            for query in Self.queries {
                let answer = try await search.search(query, limit: 50, offset: 0)
                #expect(!answer.fromIndex, "\(query): the build is held, so the database answers")
                during[query] = answer
            }
            #expect(during["zombies"]?.tracks.map(\.title) == ["She's Not There"])
            #expect(during["take me"]?.tracks.map(\.title) == ["Take On Me"])
            // In the catalog's artist order ("The Zombies" under Z); "b" starts Björk and Blur.
            #expect(during["b"]?.tracks.map(\.artist) == ["Björk", "Blur"])
            #expect(during["electronic"]?.total == 2)
            // A page of the database's answer.
            let second = try await search.search("hits", limit: 2, offset: 2)
            #expect(second.tracks.map(\.id) == Array(try #require(during["hits"]).tracks[2..<4]).map(\.id) && second.total == 7)
            #expect(try await search.search("   ", limit: 10, offset: 0).total == 0)

            await gate.release()
            try await search.waitUntilCurrent()
            for query in Self.queries {
                let answer = try await search.search(query, limit: 50, offset: 0)
                #expect(answer.fromIndex)
                // The index ranks its hits; the tracks and their number are the database's.
                #expect(Set(answer.tracks.map(\.id)) == Set(try #require(during[query]).tracks.map(\.id)), "\(query)")
                #expect(answer.total == during[query]?.total, "\(query)")
            }
            #expect(await search.builds == 1)
        }
    }

    @Test(arguments: TestBackend.available)
    func aScanChangesTheIndexInPlace(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let token = try await client.register("admin")
            let songs = CatalogPagesAPITests.songs
            let folder = try await app.addSongs(Array(songs.prefix(4)))
            let search = app.services.platform.search
            let builds = await search.builds
            func titles(_ query: String) async throws -> [String] {
                let answer = try await search.search(query, limit: 50, offset: 0)
                #expect(answer.fromIndex, "\(query)")
                return answer.tracks.map(\.title)
            }
            #expect(try await titles("greensleeves") == ["Greensleeves"])

            // Changed (the first file retagged) and removed (the fourth file deleted), then added.
            var next = Array(songs.prefix(3))
            next[0].title = "Time of the Season"
            try FileManager.default.removeItem(atPath: folder + "/3.wav")
            _ = try await app.addSongs(next)
            #expect(try await titles("greensleeves").isEmpty, "removed")
            _ = try await app.addSongs(next + [songs[6]])
            #expect(try await titles("season") == ["Time of the Season"], "changed")
            #expect(try await titles("there").isEmpty, "the old title is gone")
            #expect(try await titles("teardrop") == ["Teardrop"], "added")
            #expect(try await titles("seasn").isEmpty == false, "the new words correct typos too")
            #expect(await search.builds == builds, "no build: the scan's batches were applied in place")
            #expect(try await search.isCurrent)
            let api = try await client.json(.get, "/api/v1/catalog/search?q=season", token: token)
            #expect((api.json["items"] as? [[String: Any]])?.first?["title"] as? String == "Time of the Season")
        }
    }
}
