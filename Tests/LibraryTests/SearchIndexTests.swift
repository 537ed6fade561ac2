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

    static let tracks = [
        track("Ode to Joy", "Ludwig van Beethoven", album: "Classical Era Favourites", genre: "Classical", year: 1824),
        track("Für Elise", "Ludwig van Beethoven", genre: "Classical", year: 1810),
        track("Halo", "Beyoncé", album: "I Am... Sasha Fierce", genre: "Pop", year: 2008),
        track("Beethoven's Wig", "Richard Perlmutter"),
        track("Joy", "Someone Else", album: "Joyful Noise"),
    ]
    static let index = LibrarySearchIndex(tracks: tracks, generation: 1)
    static let titleOf = Dictionary(uniqueKeysWithValues: tracks.map { ($0.id, $0.title) })

    @Test func matchesWordPrefixesInAnyField() {
        #expect(Self.index.search("beeth", limit: 10).total == 3)
        #expect(Self.index.search("fierce", limit: 10).titles == ["Halo"])
        #expect(Self.index.search("1810", limit: 10).titles == ["Für Elise"])
    }

    @Test func foldsAccentsAndCase() {
        #expect(Self.index.search("BEYONCE", limit: 10).titles == ["Halo"])
        #expect(Self.index.search("fur elise", limit: 10).titles == ["Für Elise"])
    }

    @Test func everyWordMustMatch() {
        #expect(Self.index.search("beethoven joy", limit: 10).titles == ["Ode to Joy"])
        #expect(Self.index.prefixSearch("beethoven halo", limit: 10, offset: 0).total == 0)
    }

    @Test func typosFindCloseMatchesMarkedApproximate() {
        let typo = Self.index.search("beethovn", limit: 10)
        #expect(typo.approximate && typo.suggestion == "beethoven")
        #expect(Set(typo.titles) == ["Ode to Joy", "Für Elise", "Beethoven's Wig"])
        let title = Self.index.search("Fur Elyse", limit: 10)
        #expect(title.approximate && title.titles == ["Für Elise"] && title.suggestion == "fur elise")
        #expect(Self.index.search("beethovn halo", limit: 10).total == 0, "corrected words must still all match")
        #expect(!Self.index.search("beeth", limit: 10).approximate, "prefix hits are exact")
        #expect(Self.index.search("qqqqqqqq", limit: 10).total == 0)
        #expect(Self.index.search("hxl", limit: 10).total == 0, "too short to guess at")
    }

    @Test func titleHitsRankAboveOtherFields() {
        // "joy": an exact title word in two tracks, an album prefix in one.
        let titles = Self.index.search("joy", limit: 10).titles
        #expect(titles.count == 2)
        #expect(Set(titles) == ["Joy", "Ode to Joy"])
        let beethoven = Self.index.search("beethoven", limit: 10).titles
        #expect(beethoven.first == "Beethoven's Wig")
    }

    @Test func pagesThroughResults() {
        let all = Self.index.search("l", limit: 100).ids
        let pages =
            Self.index.search("l", limit: 2, offset: 0).ids + Self.index.search("l", limit: 2, offset: 2).ids
            + Self.index.search("l", limit: 2, offset: 4).ids
        #expect(pages == all)
        #expect(Self.index.search("   ", limit: 10).total == 0)
    }

    @Test func largeEqualScoreBucketsKeepDisplayOrder() {
        let many = (0..<5000).map { Self.track(String(format: "Song %04d", $0), "Artist \($0 % 7)") }
        let index = LibrarySearchIndex(tracks: many, generation: 1)
        let page = index.search("song", limit: 20, offset: 40).ids
        let full = index.search("song", limit: 5000).ids
        #expect(page == Array(full[40..<60]))
        #expect(index.search("song", limit: 1).total == 5000)
    }

    /// A scan's changes applied in place answer exactly as an index built afresh from the
    /// library they leave, with dead slots skipped and, once many, compacted away.
    @Test func changesAppliedInPlaceAnswerAsAFreshIndex() {
        let tracks = (0..<3000).map { Self.track("Song \($0)", "Artist \($0 % 13)", album: "Album \($0 % 50)", genre: $0 % 2 == 0 ? "Rock" : "Jazz") }
        var index = LibrarySearchIndex(tracks: tracks, generation: 1)
        func check(_ library: [Track], _ note: String) {
            let fresh = LibrarySearchIndex(tracks: library, generation: index.generation)
            for q in ["song", "zebra", "quokka", "newcomer", "rock", "artist 1", "changed song 15", "s", "quoka"] {
                let a = index.search(q, limit: 50, offset: 10)
                let b = fresh.search(q, limit: 50, offset: 10)
                #expect(a.ids == b.ids && a.total == b.total && a.suggestion == b.suggestion, "\(note): \(q)")
            }
            #expect(index.count == library.count)
        }
        // A few changes: no compaction.
        let changed = tracks[0..<10].map {
            var t = $0
            t.title = "Changed \(t.title) zebra"
            return t
        }
        index.apply(removing: tracks[10..<20].map(\.id), adding: changed.map(LibrarySearchIndex.Entry.init), generation: 2)
        var library = changed + Array(tracks[20...])
        check(library, "small change")
        #expect(index.generation == 2 && !index.contains(tracks[10].id) && index.contains(tracks[0].id))
        // Many removals (compacted) and new tracks with new words.
        let added = (0..<200).map { Self.track("Fresh \($0) quokka", "Newcomer \($0 % 3)") }
        index.apply(removing: library[0..<1600].map(\.id), adding: added.map(LibrarySearchIndex.Entry.init), generation: 3)
        library = Array(library[1600...]) + added
        check(library, "large change")
        #expect(index.search("quoka", limit: 5).approximate, "a new word corrects typos too")
    }
}

extension LibrarySearchIndex.Result {
    /// The hits' titles (of the suite's own tracks).
    var titles: [String] { ids.map { SearchIndexTests.titleOf[$0] ?? "?" } }
}
