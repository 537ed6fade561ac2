public import Foundation

/// One playable file in the library, with the tags Juke read from it.
public struct Track: Sendable, Codable, Equatable, Identifiable {
    public var id: TrackID
    public var folderID: LibraryFolderID
    /// Absolute path on the server's disk. Never sent to players of a game.
    public var path: String
    public var fileSize: Int64
    /// Modification time in whole milliseconds since 1970, for incremental rescans.
    public var modifiedMillis: Int64
    public var format: String
    /// The audio codec where the container holds several (MP4: "aac" or "alac"); nil when
    /// the format says it, or for files scanned before Juke told them apart.
    public var codec: String?
    public var title: String
    public var artist: String
    public var album: String
    public var albumArtist: String
    public var composer: String?
    public var genre: String?
    public var year: Int?
    public var trackNumber: Int?
    public var discNumber: Int?
    public var duration: Double
    public var isrc: String?
    public var musicBrainzID: String?
    /// Beats per minute, where the file's tags say.
    public var bpm: Double?
    /// SHA-256 (hex) of the embedded cover, stored once in the artwork table.
    public var artworkHash: String?
    public var addedAt: Date

    public var albumID: AlbumID { StableID.album(title: album, artist: albumArtist) }
    public var artistID: ArtistID { StableID.artist(named: artist) }

    public init(
        id: TrackID, folderID: LibraryFolderID, path: String, fileSize: Int64, modifiedMillis: Int64, format: String,
        codec: String? = nil, title: String, artist: String, album: String, albumArtist: String, composer: String? = nil,
        genre: String? = nil, year: Int? = nil, trackNumber: Int? = nil, discNumber: Int? = nil, duration: Double,
        isrc: String? = nil, musicBrainzID: String? = nil, bpm: Double? = nil, artworkHash: String? = nil, addedAt: Date
    ) {
        self.id = id
        self.folderID = folderID
        self.path = path
        self.fileSize = fileSize
        self.modifiedMillis = modifiedMillis
        self.format = format
        self.codec = codec
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        self.composer = composer
        self.genre = genre
        self.year = year
        self.trackNumber = trackNumber
        self.discNumber = discNumber
        self.duration = duration
        self.isrc = isrc
        self.musicBrainzID = musicBrainzID
        self.bpm = bpm
        self.artworkHash = artworkHash
        self.addedAt = addedAt
    }
}

/// A folder the library watches.
public struct LibraryFolder: Sendable, Codable, Equatable {
    public var id: LibraryFolderID
    public var path: String
    public var addedAt: Date
    public var lastScanAt: Date?

    public init(id: LibraryFolderID, path: String, addedAt: Date, lastScanAt: Date? = nil) {
        self.id = id
        self.path = path
        self.addedAt = addedAt
        self.lastScanAt = lastScanAt
    }
}
