public import JukeCore

/// A library track as a DJ sees it: what it is, and what is known of its style.
public struct Song: Sendable, Codable, Equatable, Hashable {
    public var track: TrackID
    public var title: String
    public var artist: String
    public var album: String
    /// Seconds.
    public var duration: Double
    public var genre: String?
    public var year: Int?
    public var composer: String?
    public var isrc: String?
    /// Beats per minute, where the library knows it.
    public var tempo: Double?

    public init(
        track: TrackID, title: String, artist: String, album: String = "", duration: Double, genre: String? = nil,
        year: Int? = nil, composer: String? = nil, isrc: String? = nil, tempo: Double? = nil
    ) {
        self.track = track
        self.title = title
        self.artist = artist
        self.album = album
        self.duration = duration
        self.genre = genre
        self.year = year
        self.composer = composer
        self.isrc = isrc
        self.tempo = tempo
    }

    /// "Artist - Title", the way DJs and playlists name a song.
    public var displayName: String { "\(artist) - \(title)" }
}
