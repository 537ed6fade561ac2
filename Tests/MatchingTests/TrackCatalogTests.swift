import Testing

@testable import Matching

/// Resolving through the catalog index gives what resolving against every track gives, in a
/// library padded with 5,000 other tracks, and follows the library as it changes.
@Suite(.timeLimit(.minutes(5))) struct TrackCatalogTests {
    typealias C = TrackResolver.Candidate<Int>

    static let padded: [C] = {
        let titles = CatalogIndexTests.catalog(5_000, seed: 21)
        let artists = CatalogIndexTests.catalog(5_000, seed: 22)
        return TrackResolverTests.library + (0..<5_000).map { C(id: 1_000 + $0, artist: artists[$0], title: titles[$0], duration: 200) }
    }()

    static func id(_ r: TrackResolver.Result<Int>) -> Int? {
        if case .match(let m) = r { return m.candidate.id }
        return nil
    }

    @Test func resolvesAsTheLinearResolverDoes() {
        let catalog = TrackCatalog(Self.padded)
        #expect(catalog.count == Self.padded.count)
        let queries: [TrackResolver.Query] = [
            .init(artist: "Queen", title: "Bohemian Rhapsody"), .init(artist: "Queen", title: "Bohemian Rhapsody (Live)"),
            .init(artist: "Queen", title: "Bohemian Rhapsody", duration: 355), .init(artist: "Pink Floyd", title: "Another Brick in the Wall Part 2"),
            .init(artist: "Beyonce", title: "Crazy In Love"), .init(artist: "Beatles", title: "Yesterday"),
            .init(artist: "Boyz II Men", title: "Yesterday"), .init(artist: "Adele", title: "Hello"),
            .init(artist: "Someone", title: "Anything", isrc: "gbn9y1100088"),
            .init(artist: Self.padded[4_000].artist, title: Self.padded[4_000].title + "s"),
        ]
        for q in queries {
            let linear = Self.id(TrackResolver().resolve(q, in: Self.padded))
            #expect(Self.id(catalog.resolve(q)) == linear, "\(q.artist) - \(q.title)")
        }
        #expect(Self.id(catalog.resolve(queries[9])) == Self.padded[4_000].id)
        #expect(Self.id(catalog.resolve(queries[7])) == nil)
    }

    @Test func followsTheLibrary() {
        var catalog = TrackCatalog(TrackResolverTests.library)
        let yesterday = TrackResolver.Query(artist: "The Beatles", title: "Yesterday")
        #expect(Self.id(catalog.resolve(yesterday)) == 7)
        catalog.remove(7)
        #expect(Self.id(catalog.resolve(yesterday)) == nil)
        catalog.upsert(C(id: 70, artist: "The Beatles", title: "Yesterday", isrc: "GBAYE0601477"))
        #expect(Self.id(catalog.resolve(yesterday)) == 70)
        #expect(Self.id(catalog.resolve(.init(artist: "x", title: "y", isrc: "GB-AYE-06-01477"))) == 70)
        catalog.upsert(C(id: 70, artist: "The Beatles", title: "Help!"))
        #expect(Self.id(catalog.resolve(yesterday)) == nil)
        #expect(catalog.track(70)?.title == "Help!")
    }
}
