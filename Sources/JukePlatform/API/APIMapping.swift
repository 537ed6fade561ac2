import Foundation
import JukeAPI
import JukeCore
import Library
import Storage

/// Library values into the spec's JSON shapes.
enum APIMapping {
    static func user(_ u: User) -> Components.Schemas.User {
        .init(id: u.id.description, username: u.username, email: u.email, displayName: u.displayName, isAdmin: u.isAdmin, createdAt: u.createdAt)
    }

    /// A track as the catalog lists it; `canTranscode` says whether the server can play
    /// every format to every browser (with ffmpeg), which decides `playable`.
    static func track(_ t: Track, canTranscode: Bool) -> Components.Schemas.Track {
        .init(
            id: t.id.description, title: t.title, artist: t.artist, album: t.album, albumArtist: t.albumArtist,
            albumId: t.albumID.description, artistId: t.artistID.description, composer: t.composer, genre: t.genre,
            year: t.year, trackNumber: t.trackNumber, discNumber: t.discNumber, duration: t.duration, format: t.format,
            codec: PlaybackChoice.codec(format: t.format, codec: t.codec),
            playable: PlaybackChoice.playable(format: t.format, codec: t.codec, canTranscode: canTranscode), isrc: t.isrc, musicbrainzId: t.musicBrainzID,
            bpm: t.bpm,
            audioUrl: "/api/v1/catalog/tracks/\(t.id)/audio",
            artworkUrl: t.artworkHash.map { _ in "/api/v1/catalog/tracks/\(t.id)/artwork" },
            downloadUrl: "/api/v1/catalog/tracks/\(t.id)/download"
        )
    }

    static func album(_ a: LibraryStore.AlbumSummary) -> Components.Schemas.Album {
        .init(
            id: a.id.description, title: a.title, artist: a.artist, year: a.year, trackCount: a.trackCount, duration: a.duration,
            artworkUrl: a.artworkTrackID.map { "/api/v1/catalog/tracks/\($0)/artwork" }, yearMax: a.yearMax, genre: a.genre, addedAt: a.addedAt,
            playCount: a.playCount, lastPlayedAt: a.lastPlayedAt
        )
    }

    static func folder(_ f: LibraryFolder) -> Components.Schemas.LibraryFolder {
        .init(id: f.id.description, path: f.path, addedAt: f.addedAt, lastScanAt: f.lastScanAt)
    }

    static func scan(_ p: ScanProgress) -> Components.Schemas.ScanProgress {
        .init(
            folderPath: p.folderPath, phase: .init(rawValue: p.phase.rawValue) ?? .failed, filesFound: p.filesFound,
            filesChecked: p.filesChecked, added: p.added, updated: p.updated, moved: p.moved, removed: p.removed,
            unchanged: p.unchanged, failed: p.failed, currentPath: p.currentPath, message: p.message
        )
    }
}
