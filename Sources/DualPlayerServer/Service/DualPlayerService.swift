import DualPlayer
import Foundation
import JukeCore
import JukePlatform
import Library
import Logging
import MediaFormats
import MediaStorage
import Storage

/// Dual Player's server side: loads, applies the engine's rules, stores. The players
/// themselves run in the browser; the server keeps what they must find again on any device.
public struct DualPlayerService: Sendable {
    let store: DualPlayerStore
    let books: BookStore
    let library: LibraryStore
    let clock: WallClock
    let logger: Logger

    /// At most this many positions in one request.
    static let maxPositions = 200
    /// The longest list of item keys one position query may carry (200 keys of 20 characters).
    static let maxItemsQuery = 4_000

    let uploads: BookUploads
    /// Where an uploaded book's tags and chapters are read: off the server's threads.
    let reading: ReadingPool

    public init(
        database: any JukeDatabase, library: LibraryStore, reading: ReadingPool, clock: WallClock, logger: Logger, files: any MediaStore,
        scratch: String, maxUploadSize: Int
    ) {
        self.reading = reading
        self.store = DualPlayerStore(database: database)
        self.books = BookStore(database: database)
        self.uploads = BookUploads(scratch: scratch, files: files, limit: maxUploadSize)
        self.library = library
        self.clock = clock
        self.logger = logger
    }

    var nowMillis: Int64 { Int64((clock.now().timeIntervalSince1970 * 1000).rounded()) }

    func settings(of user: UserID) async throws -> DualSettings {
        try await store.settings(of: user) ?? .defaults
    }

    func save(_ settings: DualSettings, of user: UserID) async throws -> DualSettings {
        let valid = try settings.validated()
        try await store.save(valid, of: user, now: clock.now())
        return valid
    }

    func players(of user: UserID) async throws -> [PlayerKind: (snapshot: PlayerSnapshot, updatedAt: Int64)] {
        var out: [PlayerKind: (snapshot: PlayerSnapshot, updatedAt: Int64)] = [:]
        for (kind, row) in try await store.players(of: user) {
            // A row that no longer decodes is dropped rather than failing the whole page.
            guard let snapshot = try? JSONColumn.decode(PlayerSnapshot.self, row.data) else {
                logger.warning("dual player state unreadable", metadata: ["user": "\(user)", "player": "\(kind.rawValue)"])
                continue
            }
            out[kind] = (snapshot, row.updatedAt)
        }
        return out
    }

    /// Saves one player's state if it is the newest; returns the state kept.
    func save(_ snapshot: PlayerSnapshot, updatedAt: Int64, player: PlayerKind, of user: UserID) async throws -> (PlayerSnapshot, Int64) {
        let stamped = try SavedPosition.validated(seconds: snapshot.position, updatedAt: updatedAt, field: "position").clamped(toServerNow: nowMillis)
        if let item = snapshot.item {
            try PlayerItemRules.validate(
                id: item.id, title: item.title, subtitle: item.subtitle, audioURL: item.audioURL, artworkURL: item.artworkURL, chapter: item.chapter)
            if let show = item.showID, UUID(uuidString: show) == nil || show.count != 36 {
                throw RuleRefusal.invalid("show_id", "show_id is a show's id (a UUID)")
            }
        }
        let kept = try await store.savePlayer(player, data: try JSONColumn.encode(snapshot), updatedAt: stamped.updatedAt, of: user)
        return (try JSONColumn.decode(PlayerSnapshot.self, kept.data), kept.updatedAt)
    }

    func positions(of user: UserID, items: [String]) async throws -> [String: SavedPosition] {
        guard items.count <= Self.maxPositions else { throw RuleRefusal.invalid("items", "ask for at most \(Self.maxPositions) items at once") }
        return try await store.positions(of: user, items: Array(Set(items)))
    }

    /// Saves positions, each kept only if newest; returns what is kept.
    func save(_ positions: [String: SavedPosition], of user: UserID) async throws -> [String: SavedPosition] {
        guard positions.count <= Self.maxPositions else { throw RuleRefusal.invalid("positions", "send at most \(Self.maxPositions) positions at once") }
        for item in positions.keys {
            guard !item.isEmpty, item.count <= 200, item.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._:#-".contains($0)) }) else {
                throw RuleRefusal.invalid("item", "an item key is letters, digits and . _ : # -")
            }
        }
        let now = nowMillis
        return try await store.save(positions.mapValues { $0.clamped(toServerNow: now) }, of: user)
    }

    func books(visibleTo user: UserID) async throws -> [Book] {
        try await books.books(visibleTo: user)
    }

    /// Where `user` last was in each book (in the book's time, from whichever of its keys,
    /// the book's or a chapter's, was saved last), for the shelf's progress.
    func listened(by user: UserID) async throws -> [BookID: SavedPosition] {
        var latest: [BookID: SavedPosition] = [:]
        for (key, saved) in try await store.positions(of: user, startingWith: "book:") {
            let id = key.dropFirst("book:".count).prefix { $0 != "#" }
            guard let book = BookID(String(id)) else { continue }
            if let known = latest[book], known.updatedAt >= saved.updatedAt { continue }
            latest[book] = saved
        }
        return latest
    }

    /// A book `user` may play, or not found (another account's book is not theirs to know of).
    func book(_ id: BookID, for user: UserID) async throws -> Book {
        guard let book = try await books.book(id), book.isVisible(to: user) else { throw RuleRefusal.notFound("No such book.") }
        return book
    }

    /// Takes an uploaded audiobook onto `user`'s shelf, or everyone's when an admin shares it.
    /// The same file already on that shelf (the same bytes) is the answer instead, with
    /// `created` false: no second copy is kept.
    func upload(_ body: some AsyncSequence<ArraySlice<UInt8>, any Error>, filename: String, share: Bool, by user: User) async throws
        -> (book: Book, created: Bool)
    {
        guard !share || user.isAdmin else { throw RuleRefusal.forbidden("Only an admin can put a book on everyone's shelf.") }
        let (uploads, books, owner, now) = (self.uploads, self.books, share ? nil : user.id, clock.now())
        let (book, created) = try await uploads.receiver.take(
            body, filename: filename, reading: reading,
            existing: { try await books.book(sha256: $0, onShelfOf: owner) },
            read: { try uploads.read(path: $0, key: $1, filename: $2, owner: owner, now: now) },
            contentType: "audio/mp4",
            add: { try await books.add($0, sha256: $1) })
        logger.info(
            created ? "book uploaded" : "book uploaded again",
            metadata: ["book": "\(book.id)", "chapters": "\(book.chapters.count)", "user": "\(user.id)"])
        return (book, created)
    }

    /// Removes a book: its uploader's to remove, or an admin's. Returns what was removed.
    @discardableResult
    func delete(_ id: BookID, by user: User) async throws -> Book {
        let book = try await book(id, for: user.id)
        guard book.owner == user.id || user.isAdmin else { throw RuleRefusal.forbidden("Only an admin can remove a book on everyone's shelf.") }
        try await books.delete(id)
        // The demo is made again on the next start; an upload's file goes with its book (a
        // file that stays stored is logged: the book is gone from the shelf either way).
        // An upload's cover goes with it too (LibriVox's is LibriVoxService's to remove).
        let cover = book.origin == .upload ? book.coverFile.flatMap(StorageKey.init) : nil
        for key in [book.origin != .demo ? StorageKey(book.file) : nil, cover].compactMap({ $0 }) {
            do {
                try await uploads.files.delete(key)
            } catch {
                logger.warning("a removed book's file stays stored", metadata: ["book": "\(book.id)", "error": "\(error)"])
            }
        }
        return book
    }

    /// A library track's chapters, read from its file by Juke's own reader.
    func chapters(of track: TrackID) async throws -> ChapterList {
        guard let track = try await library.track(id: track) else { throw RuleRefusal.notFound("No such track.") }
        // As the audio route: the file's real path, inside a library folder; a file gone
        // since the last scan is not found, not unreadable.
        let folders = try await library.folders().map(\.path)
        guard let real = LibraryPaths.realPath(track.path), LibraryPaths.isInside(real, anyOf: folders) else {
            throw RuleRefusal.notFound("The track's file is no longer in the library; rescan it.")
        }
        do {
            return try ChapterReader.read(path: real)
        } catch {
            throw RuleRefusal.unprocessable("track_id", "The track's file cannot be read for chapters: \(error)")
        }
    }
}
