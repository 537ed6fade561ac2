import Foundation
import JukeCore
import Testing

@testable import Storage

@Suite(.timeLimit(.minutes(5))) struct CatalogKeysTests {
    @Test func namesFoldCaseAccentsAndWidthAndSetALeadingArticleAside() {
        #expect(CatalogKeys.name("Beyoncé") == "beyonce")
        #expect(CatalogKeys.name("The Beatles") == "beatles")
        #expect(CatalogKeys.name("A Tribe Called Quest") == "tribe called quest")
        #expect(CatalogKeys.name("An Horse") == "horse")
        #expect(CatalogKeys.name("ＡＢＢＡ") == "abba")
        // A name that is only the article keeps it; a word that begins with one is not cut.
        #expect(CatalogKeys.name("The") == "the")
        #expect(CatalogKeys.name("Theory of a Deadman") == "theory of a deadman")
        #expect(CatalogKeys.name("Anthrax") == "anthrax")
        // Control characters go, so the separator sorts before every character of a name.
        #expect(CatalogKeys.name("Tab\tName\u{1}") == "tabname")
    }

    @Test func artistsSortAsPeopleLookForThem() {
        let names = ["the Zombies", "Blur", "The Beatles", "beyoncé", "Air", "A-ha", "Ásgeir", "ABBA"]
        let id = ArtistID()
        let sorted = names.sorted { CatalogKeys.artistByName(name: $0, id: id).utf8.lexicographicallyPrecedes(CatalogKeys.artistByName(name: $1, id: id).utf8) }
        #expect(sorted == ["A-ha", "ABBA", "Air", "Ásgeir", "The Beatles", "beyoncé", "Blur", "the Zombies"])
    }

    @Test func aShorterNameSortsBeforeALongerOneItBegins() {
        let a = CatalogKeys.albumByArtist(artist: "Air", title: "X", id: AlbumID())
        let b = CatalogKeys.albumByArtist(artist: "Air Supply", title: "A", id: AlbumID())
        #expect(a.utf8.lexicographicallyPrecedes(b.utf8))
    }

    @Test func tracksSortByDiscAndTrackNumberAsNumbersWithUntaggedOnesFirst() {
        func key(_ disc: Int?, _ track: Int?) -> String {
            CatalogKeys.trackInAlbum(disc: disc, track: track, title: "t", id: TrackID(rawValue: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))))
        }
        let ordered = [key(nil, nil), key(1, 2), key(1, 10), key(2, 1), key(10, 1)]
        #expect(ordered == ordered.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(key(nil, 3) == key(1, 3))
    }

    @Test func theNewestSortsFirstAndUnknownYearsLast() {
        let old = CatalogKeys.albumNewest(addedAt: Date(timeIntervalSince1970: 1_000), artist: "a", title: "a", id: AlbumID())
        let new = CatalogKeys.albumNewest(addedAt: Date(timeIntervalSince1970: 2_000), artist: "z", title: "z", id: AlbumID())
        #expect(new.utf8.lexicographicallyPrecedes(old.utf8))
        let id = AlbumID()
        let years = [
            CatalogKeys.albumByYear(year: 999, artist: "z", title: "z", id: id), CatalogKeys.albumByYear(year: 1999, artist: "a", title: "a", id: id),
            CatalogKeys.albumByYear(year: nil, artist: "a", title: "a", id: id),
        ]
        #expect(years == years.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(CatalogKeys.year(1990) == "01990")
    }

    /// The longest key, of names in four-byte characters, still makes a cursor the contract
    /// takes back (at most 2,000 characters).
    @Test func theLongestCursorFitsTheContract() {
        let long = String(repeating: "\u{1F3B5}", count: 5_000)
        let key = CatalogKeys.trackNewest(
            addedAt: Date(), byArtist: CatalogKeys.trackByArtist(artist: long, album: long, disc: 99, track: 999, title: long, id: TrackID()))
        let text = CatalogCursor(scope: "tracks", column: "order_newest", key: key).text
        #expect(text.count <= 2_000)
        #expect(CatalogCursor(text: text)?.key == key)
    }

    @Test func cursorsRoundTripAndRefuseWhatIsNotOne() throws {
        let cursor = CatalogCursor(
            scope: "albums", column: "order_name", key: CatalogKeys.albumByName(title: "Ærøskøbing / Ünïcode+", artist: "x", id: AlbumID()))
        #expect(CatalogCursor(text: cursor.text) == cursor)
        #expect(cursor.text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(CatalogCursor(text: "not base64 !") == nil)
        #expect(CatalogCursor(text: CatalogCursor(scope: "albums", column: "password_hash", key: "x").text) == nil)
        #expect(CatalogCursor(text: CatalogCursor(scope: "albums", column: "order_name", key: "").text) == nil)
        #expect(CatalogCursor(text: CatalogCursor(scope: "users", column: "order_name", key: "x").text) == nil)
    }
}
