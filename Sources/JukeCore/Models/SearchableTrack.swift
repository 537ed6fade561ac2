/// A track as search sees it: the fields whose words are indexed, and the catalog's artist
/// order key (where equally good hits list it, compared as text). One type for the store
/// that reads them (`LibraryStore.searchRows`) and the index that holds them
/// (`LibrarySearchIndex.Entry`), so a build hands the rows over as they are read.
public struct SearchableTrack: Sendable {
    public let id: TrackID
    public let title: String
    public let artist: String
    public let album: String
    public let albumArtist: String
    public let composer: String?
    public let genre: String?
    public let year: Int?
    public let order: String

    public init(
        id: TrackID, title: String, artist: String, album: String, albumArtist: String, composer: String?, genre: String?, year: Int?,
        order: String
    ) {
        self.id = id
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        self.composer = composer
        self.genre = genre
        self.year = year
        self.order = order
    }
}
