public import Foundation
public import JukeCore
import SQLKit

/// Playlists people make in Subsonic players: each belongs to one account, which alone
/// changes it; a public one is readable by everyone. Songs are kept by track id in order
/// (a song may be there twice); a song that leaves the library is left out when read.
public struct SubsonicPlaylistStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    public struct Playlist: Sendable, Equatable {
        public let id: UUID
        public let owner: UserID
        public let ownerName: String
        public var name: String
        public var comment: String?
        public var isPublic: Bool
        public let createdAt: Date
        public var changedAt: Date
        /// The songs' track ids in order, as stored (a song no longer in the library too).
        public var trackIDs: [String]
    }

    /// What to change of a playlist (nil: leave as it is).
    public struct Change: Sendable {
        public var name: String?
        public var comment: String?
        public var isPublic: Bool?
        /// Replaces every song (createPlaylist given a playlist's id).
        public var replaceSongs: [String]?
        /// Positions to remove, of the list as it was (before additions).
        public var removeIndexes: [Int] = []
        public var addSongs: [String] = []
        public init() {}
    }

    /// The most songs one playlist keeps.
    public static let maxSongs = 10_000

    public func create(id: UUID, owner: UserID, name: String, trackIDs: [String], now: Date) async throws {
        try await database.transaction { db in
            try await db.raw(
                """
                INSERT INTO subsonic_playlists (id, user_id, name, is_public, created_at, changed_at)
                VALUES (\(bind: id.uuidString.lowercased()), \(bind: owner.description), \(bind: name), 0, \(bind: now.timeIntervalSince1970), \(bind: now.timeIntervalSince1970))
                """
            ).run()
            try await Self.writeSongs(trackIDs, playlist: id, on: db)
        }
    }

    /// The playlists `reader` may see: their own, and everyone's public ones (or, with
    /// `owner`, only that account's: all of them for itself, the public ones for others).
    public func playlists(readableBy reader: UserID, owner: UserID? = nil) async throws -> [Playlist] {
        try await database.withConnection { db in
            let rows: [any SQLRow]
            if let owner {
                rows = try await db.raw(
                    """
                    \(unsafeRaw: Self.select) WHERE p.user_id = \(bind: owner.description) AND (p.user_id = \(bind: reader.description) OR p.is_public = 1)
                    ORDER BY p.created_at, p.id
                    """
                ).all()
            } else {
                rows = try await db.raw(
                    """
                    \(unsafeRaw: Self.select) WHERE p.user_id = \(bind: reader.description) OR p.is_public = 1
                    ORDER BY p.created_at, p.id
                    """
                ).all()
            }
            var lists = try rows.map(Self.playlist)
            for i in lists.indices { lists[i].trackIDs = try await Self.songs(lists[i].id, on: db) }
            return lists
        }
    }

    /// One playlist, if `reader` may see it (theirs, or a public one).
    public func playlist(id: UUID, readableBy reader: UserID) async throws -> Playlist? {
        try await database.withConnection { db in
            guard
                var list = try await db.raw(
                    """
                    \(unsafeRaw: Self.select) WHERE p.id = \(bind: id.uuidString.lowercased()) AND (p.user_id = \(bind: reader.description) OR p.is_public = 1)
                    """
                ).first().map(Self.playlist)
            else { return nil }
            list.trackIDs = try await Self.songs(id, on: db)
            return list
        }
    }

    public enum Outcome: Sendable, Equatable { case changed, notFound, notOwner, badIndex(Int), tooLong }

    /// Changes a playlist of `owner`'s. Someone else's playlist is `notOwner` when they may
    /// read it, else `notFound`: no one learns of another's private playlist.
    public func change(id: UUID, owner: UserID, _ change: Change, now: Date) async throws -> Outcome {
        try await database.transaction { db in
            let idText = id.uuidString.lowercased()
            if let refused = try await Self.refusal(of: idText, to: owner, on: db) { return refused }
            var songs = try await Self.songs(id, on: db)
            if let replacement = change.replaceSongs { songs = replacement }
            for index in change.removeIndexes where !songs.indices.contains(index) { return .badIndex(index) }
            for index in Set(change.removeIndexes).sorted(by: >) { songs.remove(at: index) }
            songs += change.addSongs
            guard songs.count <= Self.maxSongs else { return .tooLong }
            if let name = change.name {
                try await db.raw("UPDATE subsonic_playlists SET name = \(bind: name) WHERE id = \(bind: idText)").run()
            }
            if let comment = change.comment {
                try await db.raw("UPDATE subsonic_playlists SET comment = \(bind: comment) WHERE id = \(bind: idText)").run()
            }
            if let isPublic = change.isPublic {
                try await db.raw("UPDATE subsonic_playlists SET is_public = \(bind: isPublic ? 1 : 0) WHERE id = \(bind: idText)").run()
            }
            try await db.raw("UPDATE subsonic_playlists SET changed_at = \(bind: now.timeIntervalSince1970) WHERE id = \(bind: idText)").run()
            try await db.raw("DELETE FROM subsonic_playlist_songs WHERE playlist_id = \(bind: idText)").run()
            try await Self.writeSongs(songs, playlist: id, on: db)
            return .changed
        }
    }

    /// Why `owner` may not change a playlist: none there (`notFound`), or someone else's
    /// (`notOwner` when it is public, else `notFound`); nil when it is theirs.
    static func refusal(of idText: String, to owner: UserID, on db: any SQLDatabase) async throws -> Outcome? {
        guard let row = try await db.raw("SELECT user_id, is_public FROM subsonic_playlists WHERE id = \(bind: idText)").first() else { return .notFound }
        guard try row.decode(column: "user_id", as: String.self) == owner.description else {
            return try row.decode(column: "is_public", as: Int.self) == 1 ? .notOwner : .notFound
        }
        return nil
    }

    /// Deletes a playlist of `owner`'s (the same outcomes as `change`).
    public func delete(id: UUID, owner: UserID) async throws -> Outcome {
        try await database.transaction { db in
            let idText = id.uuidString.lowercased()
            if let refused = try await Self.refusal(of: idText, to: owner, on: db) { return refused }
            try await db.raw("DELETE FROM subsonic_playlist_songs WHERE playlist_id = \(bind: idText)").run()
            try await db.raw("DELETE FROM subsonic_playlists WHERE id = \(bind: idText)").run()
            return .changed
        }
    }

    static let select = """
        SELECT p.id, p.user_id, u.username, p.name, p.comment, p.is_public, p.created_at, p.changed_at
        FROM subsonic_playlists p JOIN users u ON u.id = p.user_id
        """

    static func playlist(_ row: any SQLRow) throws -> Playlist {
        Playlist(
            id: UUID(uuidString: try row.decode(column: "id", as: String.self)) ?? UUID(),
            owner: try decodeID(row, "user_id"),
            ownerName: try row.decode(column: "username", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            comment: try row.decode(column: "comment", as: String?.self),
            isPublic: try row.decode(column: "is_public", as: Int.self) == 1,
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
            changedAt: Date(timeIntervalSince1970: try row.decode(column: "changed_at", as: Double.self)),
            trackIDs: [])
    }

    static func songs(_ playlist: UUID, on db: any SQLDatabase) async throws -> [String] {
        try await db.raw(
            "SELECT track_id FROM subsonic_playlist_songs WHERE playlist_id = \(bind: playlist.uuidString.lowercased()) ORDER BY position"
        ).all().map { try $0.decode(column: "track_id", as: String.self) }
    }

    static func writeSongs(_ songs: [String], playlist: UUID, on db: any SQLDatabase) async throws {
        let idText = playlist.uuidString.lowercased()
        // In slices, so a long playlist never meets a database's limit on bound values.
        for start in stride(from: 0, to: songs.count, by: 300) {
            let rows = songs[start..<min(start + 300, songs.count)].enumerated().map { offset, track in
                SQLList([SQLBind(idText), SQLBind(start + offset), SQLBind(track)])
            }
            try await db.raw(
                "INSERT INTO subsonic_playlist_songs (playlist_id, position, track_id) VALUES \(SQLList(rows.map { SQLGroupExpression($0) }))"
            ).run()
        }
    }
}
