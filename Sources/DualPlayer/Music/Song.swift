public import Foundation
import JukeCore

public struct SongID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// A song uploaded for Dual Player's music player: one file on the server with what its tags
/// said. Like a book, it is its uploader's, or everyone's when an admin shares it.
public struct Song: Sendable, Equatable {
    public var id: SongID
    /// nil: everyone's (an admin shared it).
    public var owner: UserID?
    public var title: String
    public var artist: String?
    public var album: String?
    /// Its file's key in Juke's media storage (`dual/songs/<id>.flac`).
    public var file: String
    /// The container's format (`AudioFormat`'s names: "mp3", "mp4", "flac", "asf", "wavpack"…).
    public var format: String
    /// The codec inside, where the container holds more than one (MP4: "aac" or "alac"); nil
    /// when the format says it, or for a song stored before Juke kept it.
    public var codec: String?
    public var duration: Double
    public var hasArtwork: Bool
    public var addedAt: Date

    public init(
        id: SongID, owner: UserID?, title: String, artist: String?, album: String?, file: String, format: String, codec: String? = nil,
        duration: Double, hasArtwork: Bool, addedAt: Date
    ) {
        self.id = id
        self.owner = owner
        self.title = title
        self.artist = artist
        self.album = album
        self.file = file
        self.format = format
        self.codec = codec
        self.duration = duration
        self.hasArtwork = hasArtwork
        self.addedAt = addedAt
    }

    public func isVisible(to user: UserID) -> Bool { owner == nil || owner == user }
}
