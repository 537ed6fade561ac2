import DualPlayer
import Foundation
import JukeCore
import SQLKit
import Storage

/// The songs uploaded for Dual Player's music player.
public struct SongStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    /// Keeps `song`, with the SHA-256 of its file's bytes (to find it again when the same file comes twice).
    public func add(_ song: Song, sha256: String? = nil) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO dual_songs (id, owner_id, title, artist, album, path, format, codec, duration, has_artwork, added_at, sha256)
                VALUES (\(bind: song.id.description), \(bind: song.owner?.description), \(bind: song.title), \(bind: song.artist),
                        \(bind: song.album), \(bind: song.file), \(bind: song.format), \(bind: song.codec), \(bind: song.duration), \(bind: song.hasArtwork),
                        \(bind: song.addedAt.timeIntervalSince1970), \(bind: sha256))
                """
            ).run()
        }
    }

    /// The song uploaded from the file whose bytes hash to `sha256` in `owner`'s list: their own
    /// or everyone's; for nil, everyone's.
    public func song(sha256: String, inListOf owner: UserID?) async throws -> Song? {
        try await database.withConnection { db in
            guard let owner else {
                return try await db.raw("SELECT * FROM dual_songs WHERE sha256 = \(bind: sha256) AND owner_id IS NULL ORDER BY added_at LIMIT 1")
                    .first().map(Self.song)
            }
            return try await db.raw(
                """
                SELECT * FROM dual_songs WHERE sha256 = \(bind: sha256) AND (owner_id IS NULL OR owner_id = \(bind: owner.description))
                ORDER BY added_at LIMIT 1
                """
            ).first().map(Self.song)
        }
    }

    /// The songs `user` sees: everyone's and their own, newest first.
    public func songs(visibleTo user: UserID) async throws -> [Song] {
        try await database.withConnection { db in
            try await db.raw(
                "SELECT * FROM dual_songs WHERE owner_id IS NULL OR owner_id = \(bind: user.description) ORDER BY added_at DESC, title"
            ).all().map(Self.song)
        }
    }

    public func song(_ id: SongID) async throws -> Song? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM dual_songs WHERE id = \(bind: id.description)").first().map(Self.song)
        }
    }

    public func setCodec(_ codec: String, of id: SongID) async throws {
        try await database.withConnection { db in
            try await db.raw("UPDATE dual_songs SET codec = \(bind: codec) WHERE id = \(bind: id.description)").run()
        }
    }

    public func delete(_ id: SongID) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM dual_songs WHERE id = \(bind: id.description)").run()
        }
    }

    static func song(_ row: any SQLRow) throws -> Song {
        Song(
            id: try decodeID(row, "id"), owner: try row.decode(column: "owner_id", as: String?.self).flatMap { UserID($0) },
            title: try row.decode(column: "title", as: String.self), artist: try row.decode(column: "artist", as: String?.self),
            album: try row.decode(column: "album", as: String?.self), file: try row.decode(column: "path", as: String.self),
            format: try row.decode(column: "format", as: String.self), codec: try row.decode(column: "codec", as: String?.self),
            duration: try row.decode(column: "duration", as: Double.self),
            hasArtwork: try row.decode(column: "has_artwork", as: Bool.self),
            addedAt: Date(timeIntervalSince1970: try row.decode(column: "added_at", as: Double.self)))
    }
}
