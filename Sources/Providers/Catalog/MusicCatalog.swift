/// A music catalog outside the library (Apple Music, iTunes Search): searched for metadata,
/// never played from. Back2Back uses it to learn a song's ISRC and length, which make the
/// match to a library track certain.
public protocol MusicCatalog: Sendable {
    /// For logs and the settings page.
    var name: String { get }
    func search(_ term: String, limit: Int, offset: Int) async throws(CatalogError) -> CatalogPage
}

public struct CatalogSong: Sendable, Equatable {
    public var id: String
    public var title: String
    public var artist: String
    public var album: String?
    /// Seconds.
    public var duration: Double?
    public var isrc: String?
    public var year: Int?
    public var genre: String?
    public var artworkURL: String?
    public var url: String?

    public init(
        id: String, title: String, artist: String, album: String? = nil, duration: Double? = nil, isrc: String? = nil, year: Int? = nil,
        genre: String? = nil, artworkURL: String? = nil, url: String? = nil
    ) {
        self.id = id
        self.title = title
        self.artist = artist
        self.album = album
        self.duration = duration
        self.isrc = isrc
        self.year = year
        self.genre = genre
        self.artworkURL = artworkURL
        self.url = url
    }
}

public struct CatalogPage: Sendable, Equatable {
    public var songs: [CatalogSong]
    /// Whether the catalog has more after these.
    public var hasMore: Bool

    public init(songs: [CatalogSong], hasMore: Bool) {
        self.songs = songs
        self.hasMore = hasMore
    }
}

public enum CatalogError: TransportFailure, Sendable, Equatable {
    case unauthorized(String)
    case rateLimited(retryAfter: Double?)
    case status(Int, String)
    case timeout
    case unreachable(String)
    case malformed(String)
    case invalidKey(String)
}

/// "2011-09-26" or "2011-09-26T07:00:00Z" to 2011.
func yearOf(_ date: String?) -> Int? {
    guard let date, date.count >= 4, let year = Int(date.prefix(4)), (1000...3000).contains(year) else { return nil }
    return year
}
