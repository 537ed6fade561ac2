import Foundation
import HummingbirdTesting
import JukeTestSupport
import Storage
import Testing

@testable import JukePlatform
@testable import JukeServer

/// The catalog's pages over HTTP: every order, keyset paging with `next`/`after`, and the
/// filters and orders that do not go together refused with 400.
@Suite(.timeLimit(.minutes(5))) struct CatalogPagesAPITests {
    static let songs: [(title: String, artist: String, genre: String, year: Int)] = [
        ("She's Not There", "The Zombies", "Rock", 1964),
        ("Waterloo", "ABBA", "Pop", 1974),
        ("Hyperballad", "Björk", "Electronic", 1995),
        ("Greensleeves", "Traditional", "Folk", 1580),
        ("Take On Me", "a-ha", "Pop", 1985),
        ("Song 2", "Blur", "Rock", 1997),
        ("Teardrop", "Massive Attack", "Electronic", 1998),
    ]

    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func items(_ page: [String: Any]) -> [[String: Any]] { page["items"] as? [[String: Any]] ?? [] }

    /// Every page of `path` by following `next` with pages of two; the first starts `from` a
    /// letter when one is given (the pages after it go on by `next` alone).
    static func walk(_ client: some TestClientProtocol, _ path: String, token: String, from: String? = nil) async throws -> [[String: Any]] {
        var out: [[String: Any]] = []
        var after: String?
        let join = path.contains("?") ? "&" : "?"
        let start = from.map { "&from=" + ($0.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? $0) } ?? ""
        for _ in 0..<20 {
            let page = try await client.json(.get, path + join + "limit=2" + (after.map { "&after=\($0)" } ?? start), token: token)
            #expect(page.status == .ok, "\(path): \(page.json)")
            out += items(page.json)
            guard let next = page.json["next"] as? String else { return out }
            after = next
        }
        Issue.record("\(path) never ended")
        return out
    }

    @Test(arguments: TestBackend.available)
    func pagesComeInEveryOrderByCursorAsByOffset(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let token = try await client.register("admin")
            _ = try await app.addSongs(Self.songs)

            let byArtist = try await Self.walk(client, "/api/v1/catalog/albums", token: token)
            #expect(byArtist.map { $0["artist"] as? String } == ["a-ha", "ABBA", "Björk", "Blur", "Massive Attack", "Traditional", "The Zombies"])
            let all = Self.items(try await client.json(.get, "/api/v1/catalog/albums?limit=100", token: token).json)
            #expect(all.map { $0["id"] as? String } == byArtist.map { $0["id"] as? String })
            let third = try await client.json(.get, "/api/v1/catalog/albums?limit=2&offset=2", token: token)
            #expect(Self.items(third.json).map { $0["id"] as? String } == byArtist[2..<4].map { $0["id"] as? String })
            #expect(third.json["total"] as? Int == 7)

            let byYear = try await Self.walk(client, "/api/v1/catalog/albums?sort=year", token: token)
            #expect(byYear.map { $0["year"] as? Int } == [1580, 1964, 1974, 1985, 1995, 1997, 1998])
            let nineties = try await Self.walk(client, "/api/v1/catalog/albums?from_year=1999&to_year=1990", token: token)
            #expect(nineties.map { $0["year"] as? Int } == [1998, 1997, 1995])
            let range = try await client.json(.get, "/api/v1/catalog/albums?from_year=1960&to_year=1979", token: token)
            #expect(range.json["total"] as? Int == 2)
            let byName = try await Self.walk(client, "/api/v1/catalog/albums?sort=name", token: token)
            #expect(byName.first?["title"] as? String == "a-ha Hits")
            #expect(byName.count == 7)
            let newest = try await Self.walk(client, "/api/v1/catalog/albums?sort=newest", token: token)
            #expect(Set(newest.compactMap { $0["id"] as? String }) == Set(byArtist.compactMap { $0["id"] as? String }))
            #expect(newest.allSatisfy { $0["added_at"] is String })
            let electronic = try await Self.walk(client, "/api/v1/catalog/albums?genre=ELECTRONIC", token: token)
            #expect(electronic.map { $0["title"] as? String } == ["Björk Hits", "Massive Attack Hits"])
            #expect(electronic.first?["genre"] as? String == "Electronic")

            // Most and recently played: only albums played, paged by cursor as the others.
            #expect(try await Self.walk(client, "/api/v1/catalog/albums?sort=frequent", token: token).isEmpty)
            let tracksByTitle = Dictionary(uniqueKeysWithValues: try await app.services.platform.library.allTracks().map { ($0.title, $0.id) })
            let plays = [("Waterloo", 1.0), ("Teardrop", 2.0), ("Waterloo", 3.0), ("Hyperballad", 4.0), ("Waterloo", 5.0), ("Teardrop", 6.0)]
            try await app.services.platform.library.recordPlays(
                try plays.map { .init(track: try #require(tracksByTitle[$0.0]), at: Date(timeIntervalSince1970: 1_800_000_000 + $0.1)) })
            let frequent = try await Self.walk(client, "/api/v1/catalog/albums?sort=frequent", token: token)
            #expect(frequent.map { $0["title"] as? String } == ["ABBA Hits", "Massive Attack Hits", "Björk Hits"])
            #expect(frequent.map { $0["play_count"] as? Int } == [3, 2, 1])
            let recent = try await Self.walk(client, "/api/v1/catalog/albums?sort=recent", token: token)
            #expect(recent.map { $0["title"] as? String } == ["Massive Attack Hits", "ABBA Hits", "Björk Hits"])
            #expect(try await client.json(.get, "/api/v1/catalog/albums?sort=recent&limit=1", token: token).json["total"] as? Int == 3)

            let random = try await client.json(.get, "/api/v1/catalog/albums?sort=random&limit=5", token: token)
            #expect(Set(Self.items(random.json).compactMap { $0["id"] as? String }).count == 5)
            #expect(random.json["next"] == nil)

            let artists = try await Self.walk(client, "/api/v1/catalog/artists", token: token)
            #expect(artists.map { $0["name"] as? String } == ["a-ha", "ABBA", "Björk", "Blur", "Massive Attack", "Traditional", "The Zombies"])
            let tracks = try await Self.walk(client, "/api/v1/catalog/tracks", token: token)
            #expect(
                tracks.map { $0["title"] as? String } == ["Take On Me", "Waterloo", "Hyperballad", "Song 2", "Teardrop", "Greensleeves", "She's Not There"])
            #expect(try await Self.walk(client, "/api/v1/catalog/tracks?sort=newest", token: token).count == 7)
        }
    }

    /// An A-Z index's jump: a page that starts at a letter or the start of a name, compared as
    /// the order compares names (case and accents folded, "The" set aside), then paged on by
    /// `next` to the end of the list; the total stays the whole list's.
    @Test(arguments: TestBackend.available)
    func pagesStartAtALetter(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let token = try await client.register("admin")
            _ = try await app.addSongs(Self.songs)
            func names(_ items: [[String: Any]], _ field: String) -> [String] { items.compactMap { $0[field] as? String } }

            let fromB = try await Self.walk(client, "/api/v1/catalog/artists", token: token, from: "b")
            #expect(names(fromB, "name") == ["Björk", "Blur", "Massive Attack", "Traditional", "The Zombies"])
            #expect(names(try await Self.walk(client, "/api/v1/catalog/artists", token: token, from: "BL"), "name").first == "Blur")
            #expect(names(try await Self.walk(client, "/api/v1/catalog/artists", token: token, from: "bjö"), "name").first == "Björk")
            #expect(names(try await Self.walk(client, "/api/v1/catalog/artists", token: token, from: "The Z"), "name") == ["The Zombies"])
            let first = try await client.json(.get, "/api/v1/catalog/artists?from=b&limit=2", token: token)
            #expect(first.json["total"] as? Int == 7)
            let pastTheEnd = try await client.json(.get, "/api/v1/catalog/artists?from=zz", token: token)
            #expect(Self.items(pastTheEnd.json).isEmpty && pastTheEnd.json["next"] == nil)

            let byArtist = try await Self.walk(client, "/api/v1/catalog/albums", token: token, from: "m")
            #expect(names(byArtist, "artist") == ["Massive Attack", "Traditional", "The Zombies"])
            let byName = try await Self.walk(client, "/api/v1/catalog/albums?sort=name", token: token, from: "t")
            #expect(names(byName, "title") == ["Traditional Hits", "The Zombies Hits"])
            let rock = try await Self.walk(client, "/api/v1/catalog/albums?genre=rock", token: token, from: "c")
            #expect(names(rock, "title") == ["The Zombies Hits"])

            for path in [
                "/api/v1/catalog/albums?sort=year&from=b", "/api/v1/catalog/albums?sort=newest&from=b", "/api/v1/catalog/albums?sort=random&from=b",
                "/api/v1/catalog/albums?from_year=1990&from=b", "/api/v1/catalog/albums?from=b&offset=1", "/api/v1/catalog/artists?from=b&offset=1",
                "/api/v1/catalog/artists?from=b&after=\(try #require(first.json["next"] as? String))",
                // The contract's minLength: an empty from is no letter (the API fuzzing found it taken).
                "/api/v1/catalog/albums?from=", "/api/v1/catalog/artists?from=",
            ] {
                let response = try await client.json(.get, path, token: token)
                #expect(response.status == .badRequest, "\(path)")
                #expect(response.json["field"] as? String == "from", "\(path): \(response.json)")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func refusesOrdersAndFiltersThatDoNotGoTogether(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let token = try await client.register("admin")
            _ = try await app.addSongs(Array(Self.songs.prefix(5)))
            let tracksNext = try #require(try await client.json(.get, "/api/v1/catalog/tracks?limit=1", token: token).json["next"] as? String)
            let albumsNext = try #require(try await client.json(.get, "/api/v1/catalog/albums?limit=1", token: token).json["next"] as? String)
            let refused: [(String, String)] = [
                ("/api/v1/catalog/albums?sort=bogus", ""),  // refused by the contract itself
                ("/api/v1/catalog/albums?genre=Rock&from_year=1990", "genre"),
                ("/api/v1/catalog/albums?genre=Rock&sort=year", "sort"),
                ("/api/v1/catalog/albums?genre=Rock&sort=frequent", "sort"),
                ("/api/v1/catalog/albums?from_year=1990&sort=recent", "sort"),
                ("/api/v1/catalog/albums?from_year=1990&sort=name", "sort"),
                ("/api/v1/catalog/albums?to_year=10000", "to_year"),
                ("/api/v1/catalog/albums?sort=random&offset=1", "offset"),
                ("/api/v1/catalog/albums?sort=random&after=\(albumsNext)", "after"),
                ("/api/v1/catalog/albums?after=garbage", "after"),
                ("/api/v1/catalog/albums?after=\(tracksNext)", "after"),
                ("/api/v1/catalog/albums?sort=name&after=\(albumsNext)", "after"),
                ("/api/v1/catalog/albums?after=\(albumsNext)&offset=2", "after"),
                ("/api/v1/catalog/artists?after=\(albumsNext)", "after"),
                ("/api/v1/catalog/tracks?sort=newest&after=\(tracksNext)", "after"),
            ]
            for (path, field) in refused {
                let response = try await client.json(.get, path, token: token)
                #expect(response.status == .badRequest, "\(path)")
                if !field.isEmpty { #expect(response.json["field"] as? String == field, "\(path): \(response.json)") }
            }
            #expect(try await client.json(.get, "/api/v1/catalog/albums?after=\(albumsNext)", token: token).status == .ok)
        }
    }
}
