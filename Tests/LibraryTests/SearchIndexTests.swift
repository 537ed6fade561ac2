import Foundation
import JukeCore
import Testing

@testable import Library

@Suite(.timeLimit(.minutes(5))) struct SearchIndexTests {
    static func track(_ title: String, _ artist: String, album: String = "Album", composer: String? = nil, genre: String? = nil, year: Int? = nil) -> Track {
        Track(
            id: TrackID(), folderID: LibraryFolderID(), path: "/\(title)", fileSize: 1, modifiedMillis: 1, format: "mp3",
            title: title, artist: artist, album: album, albumArtist: artist, composer: composer, genre: genre, year: year,
            duration: 100, addedAt: Date()
        )
    }

    static let index = LibrarySearchIndex(
        tracks: [
            track("Ode to Joy", "Ludwig van Beethoven", album: "Classical Era Favourites", genre: "Classical", year: 1824),
            track("Für Elise", "Ludwig van Beethoven", genre: "Classical", year: 1810),
            track("Halo", "Beyoncé", album: "I Am... Sasha Fierce", genre: "Pop", year: 2008),
            track("Beethoven's Wig", "Richard Perlmutter"),
            track("Joy", "Someone Else", album: "Joyful Noise"),
        ], generation: 1)

    @Test func matchesWordPrefixesInAnyField() {
        #expect(Self.index.search("beeth", limit: 10).total == 3)
        #expect(Self.index.search("fierce", limit: 10).tracks.map(\.title) == ["Halo"])
        #expect(Self.index.search("1810", limit: 10).tracks.map(\.title) == ["Für Elise"])
    }

    @Test func foldsAccentsAndCase() {
        #expect(Self.index.search("BEYONCE", limit: 10).tracks.map(\.title) == ["Halo"])
        #expect(Self.index.search("fur elise", limit: 10).tracks.map(\.title) == ["Für Elise"])
    }

    @Test func everyWordMustMatch() {
        #expect(Self.index.search("beethoven joy", limit: 10).tracks.map(\.title) == ["Ode to Joy"])
        #expect(Self.index.prefixSearch("beethoven halo", limit: 10, offset: 0).total == 0)
    }

    @Test func typosFindCloseMatchesMarkedApproximate() {
        let typo = Self.index.search("beethovn", limit: 10)
        #expect(typo.approximate && typo.suggestion == "beethoven")
        #expect(Set(typo.tracks.map(\.title)) == ["Ode to Joy", "Für Elise", "Beethoven's Wig"])
        let title = Self.index.search("Fur Elyse", limit: 10)
        #expect(title.approximate && title.tracks.map(\.title) == ["Für Elise"] && title.suggestion == "fur elise")
        #expect(Self.index.search("beethovn halo", limit: 10).total == 0, "corrected words must still all match")
        #expect(!Self.index.search("beeth", limit: 10).approximate, "prefix hits are exact")
        #expect(Self.index.search("qqqqqqqq", limit: 10).total == 0)
        #expect(Self.index.search("hxl", limit: 10).total == 0, "too short to guess at")
    }

    @Test func titleHitsRankAboveOtherFields() {
        // "joy": an exact title word in two tracks, an album prefix in one.
        let titles = Self.index.search("joy", limit: 10).tracks.map(\.title)
        #expect(titles.count == 2)
        #expect(Set(titles) == ["Joy", "Ode to Joy"])
        let beethoven = Self.index.search("beethoven", limit: 10).tracks.map(\.title)
        #expect(beethoven.first == "Beethoven's Wig")
    }

    @Test func pagesThroughResults() {
        let all = Self.index.search("l", limit: 100).tracks.map(\.id)
        let pages =
            Self.index.search("l", limit: 2, offset: 0).tracks.map(\.id) + Self.index.search("l", limit: 2, offset: 2).tracks.map(\.id)
            + Self.index.search("l", limit: 2, offset: 4).tracks.map(\.id)
        #expect(pages == all)
        #expect(Self.index.search("   ", limit: 10).total == 0)
    }

    @Test func largeEqualScoreBucketsKeepDisplayOrder() {
        let many = (0..<5000).map { Self.track(String(format: "Song %04d", $0), "Artist \($0 % 7)") }
        let index = LibrarySearchIndex(tracks: many, generation: 1)
        let page = index.search("song", limit: 20, offset: 40).tracks
        let full = index.search("song", limit: 5000).tracks
        #expect(page.map(\.id) == Array(full[40..<60]).map(\.id))
        #expect(index.search("song", limit: 1).total == 5000)
    }
}
