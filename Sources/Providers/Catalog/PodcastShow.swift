/// A podcast as a directory lists it (iTunes Search), enough to show it and subscribe to it.
public struct PodcastShow: Sendable, Equatable, Codable {
    /// The directory's own id (iTunes' collectionId).
    public var id: String
    public var title: String
    public var author: String?
    /// The RSS feed to subscribe to.
    public var feedURL: String
    public var artworkURL: String?
    public var episodeCount: Int?
    public var genre: String?
    /// When its newest episode came out, as the directory writes it (ISO 8601).
    public var latest: String?

    public init(
        id: String, title: String, author: String? = nil, feedURL: String, artworkURL: String? = nil, episodeCount: Int? = nil, genre: String? = nil,
        latest: String? = nil
    ) {
        self.id = id
        self.title = title
        self.author = author
        self.feedURL = feedURL
        self.artworkURL = artworkURL
        self.episodeCount = episodeCount
        self.genre = genre
        self.latest = latest
    }
}
