public import Foundation
public import JukeCore

/// The stored order keys of the catalog's pages. Each is one text that sorts, byte by byte,
/// in the order a page is read in and ends with the row's ID, so it is unique: a page is a
/// range of one index (`key > last key seen`), never a sort of the table. They are made here in
/// Swift and stored, so SQLite and PostgreSQL (its columns compare bytewise, `COLLATE "C"`)
/// order them alike.
public enum CatalogKeys {
    /// Between the parts of a key: sorts before every character a part can hold (parts drop
    /// control characters), so a shorter name sorts before a longer one it begins.
    static let separator = "\u{1}"

    /// A name as people look for it in a list: case, accents and width folded, and a leading
    /// "The ", "A " or "An " set aside ("The Beatles" under B). Its first 100 characters
    /// only, so that a page's cursor (which carries a key) stays within the contract's 2,000.
    public static func name(_ text: String) -> String {
        String(String.UnicodeScalarView(SortKey.sortName(text).unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(100)))
    }

    /// A number as fixed-width digits, so that text order is number order; clamped to fit.
    static func number(_ value: Int, width: Int) -> String {
        var limit = 1
        for _ in 0..<width { limit *= 10 }
        let digits = String(min(max(value, 0), limit - 1))
        return String(repeating: "0", count: width - digits.count) + digits
    }

    /// Milliseconds since 1970 counted down from the year 2286, so the newest sorts first.
    static func newest(_ date: Date) -> String {
        let last = 9_999_999_999_999
        let millis = Int((date.timeIntervalSince1970 * 1000).rounded())
        return number(last - min(max(millis, 0), last), width: 13)
    }

    static func join(_ parts: [String]) -> String { parts.joined(separator: separator) }

    /// The year part of an album's year key: an album without a year after every year.
    public static func year(_ year: Int?) -> String { number(year ?? 99_999, width: 5) }

    // MARK: Tracks

    /// By artist, album, disc (1 when untagged), track (0 when untagged) and title.
    public static func trackByArtist(artist: String, album: String, disc: Int?, track: Int?, title: String, id: TrackID) -> String {
        join([name(artist), name(album), number(disc ?? 1, width: 4), number(track ?? 0, width: 6), name(title), id.description])
    }

    /// Within an album: disc, track and title.
    public static func trackInAlbum(disc: Int?, track: Int?, title: String, id: TrackID) -> String {
        join([number(disc ?? 1, width: 4), number(track ?? 0, width: 6), name(title), id.description])
    }

    /// The most recently added first; the tracks added at one time in the artist order.
    public static func trackNewest(addedAt: Date, byArtist: String) -> String {
        join([newest(addedAt), byArtist])
    }

    // MARK: Albums and artists

    public static func albumByArtist(artist: String, title: String, id: AlbumID) -> String {
        join([name(artist), name(title), id.description])
    }

    public static func albumByName(title: String, artist: String, id: AlbumID) -> String {
        join([name(title), name(artist), id.description])
    }

    /// By the album's first year, then artist and title.
    public static func albumByYear(year: Int?, artist: String, title: String, id: AlbumID) -> String {
        join([Self.year(year), name(artist), name(title), id.description])
    }

    /// The most recently added first (when its first track came).
    public static func albumNewest(addedAt: Date, artist: String, title: String, id: AlbumID) -> String {
        join([newest(addedAt), name(artist), name(title), id.description])
    }

    /// The most played first (OpenSubsonic's "frequent"); among equals, by artist and title.
    public static func albumFrequent(playCount: Int, artist: String, title: String, id: AlbumID) -> String {
        join([number(999_999_999_999 - min(max(playCount, 0), 999_999_999_999), width: 12), name(artist), name(title), id.description])
    }

    /// The most recently played first (OpenSubsonic's "recent").
    public static func albumRecent(playedAt: Date, artist: String, title: String, id: AlbumID) -> String {
        join([newest(playedAt), name(artist), name(title), id.description])
    }

    public static func artistByName(name text: String, id: ArtistID) -> String {
        join([name(text), id.description])
    }

    /// The key a genre is matched by (case, accents and width folded; no article set aside).
    public static func genre(_ text: String) -> String { SortKey.make(text) }
}
