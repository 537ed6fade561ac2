import DualPlayer
import Foundation
import JukeCore
import JukePlatform

/// Subsonic's bookmarks are Dual Player's saved places in audiobooks and podcast episodes:
/// a bookmark is the position the page saves (newest wins, as between two devices), with a
/// comment kept beside it. A place set in a native player resumes on the page, and one the
/// page saved is a bookmark in the player.
struct Bookmarks: Sendable {
    let service: DualPlayerService
    let podcasts: PodcastService
    let notes: BookmarkNoteStore

    enum Target: Sendable {
        case book(Book)
        case episode(Episode, show: Podcast?)
    }

    struct Bookmark: Sendable {
        var target: Target
        var seconds: Double
        var comment: String
        /// Milliseconds since 1970.
        var created: Int64
        var changed: Int64
    }

    /// The longest comment kept.
    static let maxComment = 1000

    /// Every book and episode `user` has a place in (or a comment on), latest first. Books
    /// gone from their shelf and episodes of shows they left are not listed.
    func list(for user: UserID) async throws -> [Bookmark] {
        let notes = try await self.notes.notes(of: user)
        var out: [Bookmark] = []
        var books = try await service.listened(by: user)
        for (key, _) in notes where key.hasPrefix("book:") {
            if let id = BookID(String(key.dropFirst(5))), books[id] == nil { books[id] = SavedPosition(seconds: 0, updatedAt: notes[key]?.createdAt ?? 0) }
        }
        for (id, saved) in books {
            let note = notes["book:" + id.description]
            guard saved.seconds > 0 || note != nil, let book = try await service.books.book(id), book.isVisible(to: user) else { continue }
            out.append(
                Bookmark(
                    target: .book(book), seconds: saved.seconds, comment: note?.comment ?? "", created: note?.createdAt ?? saved.updatedAt,
                    changed: saved.updatedAt))
        }
        var episodes = try await service.store.positions(of: user, startingWith: PodcastService.episodeKey)
        for (key, note) in notes where key.hasPrefix(PodcastService.episodeKey) && episodes[key] == nil {
            episodes[key] = SavedPosition(seconds: 0, updatedAt: note.createdAt)
        }
        var shows: [PodcastID: Podcast] = [:]
        for (key, saved) in episodes {
            let note = notes[key]
            guard saved.seconds > 0 || note != nil, let id = EpisodeID(String(key.dropFirst(PodcastService.episodeKey.count))),
                let episode = try await podcasts.store.episode(id), try await podcasts.store.canSee(episode, user: user)
            else { continue }
            if shows[episode.podcast] == nil { shows[episode.podcast] = try await podcasts.store.podcast(episode.podcast) }
            out.append(
                Bookmark(
                    target: .episode(episode, show: shows[episode.podcast]), seconds: saved.seconds, comment: note?.comment ?? "",
                    created: note?.createdAt ?? saved.updatedAt, changed: saved.updatedAt))
        }
        return out.sorted { ($0.changed, $0.created) > ($1.changed, $1.created) }
    }

    /// Sets `user`'s place in a book or an episode (theirs to play, or not found), with its
    /// comment: the place the page resumes from, and the speech player's own when it holds
    /// that item (so the page opens there, not where it last was).
    func set(_ id: DualSubsonicID, seconds: Double, comment: String?, for user: UserID) async throws {
        guard let key = id.positionKey else { throw SubsonicError.notFound("A channel has no place to bookmark; an episode") }
        let comment = comment.flatMap { TextRules.cleanedOrNil($0, limit: Self.maxComment + 1) } ?? ""
        guard comment.unicodeScalars.count <= Self.maxComment else {
            throw SubsonicError.invalid("comment", "is at most \(Self.maxComment) characters.")
        }
        var duration: Double?
        var chapters: [Book.Chapter] = []
        switch id {
        case .book(let book):
            let found = try await service.book(book, for: user)
            duration = found.duration
            chapters = found.chapters
        case .episode(let episode): duration = try await podcasts.episode(episode, for: user).details.duration
        case .channel: break
        }
        if let duration, duration > 0, seconds > duration + 1 { throw SubsonicError.invalid("position", "is past the end (\(Int(duration * 1000)) ms).") }
        let now = service.nowMillis
        let position = SavedPosition(seconds: seconds, updatedAt: now)
        _ = try await service.save([key: position], of: user)
        try await notes.save(comment: comment, item: key, of: user, now: now)
        if case .episode(let episode) = id {
            // At its end the episode is heard, as when the page saves there; elsewhere, a place
            // in an episode heard before is listening again (the page starts a played episode
            // from its beginning otherwise).
            if EpisodeCompletion.isHeard(position: seconds, duration: duration) {
                try await podcasts.markHeard([key: position], by: user)
            } else {
                _ = try await podcasts.setPlayed(false, episode: episode, by: user, updatedAt: now)
            }
        }
        try await moveSpeechPlayer(to: id, seconds: seconds, chapters: chapters, at: now, for: user)
    }

    /// The speech player holding this book or episode is moved to the new place, paused.
    func moveSpeechPlayer(to id: DualSubsonicID, seconds: Double, chapters: [Book.Chapter], at now: Int64, for user: UserID) async throws {
        guard let speech = try await service.players(of: user)[.speech], var item = speech.snapshot.item else { return }
        switch id {
        case .book(let book) where item.kind == "book" && item.id == book.description:
            item.chapter = chapters.isEmpty ? nil : chapters.lastIndex { $0.start <= seconds } ?? 0
        case .episode(let episode) where item.kind == "episode" && item.id == episode.description:
            item.chapter = nil
        default: return
        }
        _ = try await service.save(PlayerSnapshot(item: item, position: seconds, playing: false), updatedAt: now, player: .speech, of: user)
    }

    /// Removes `user`'s place and comment; not found when there was neither.
    func delete(_ id: DualSubsonicID, for user: UserID) async throws {
        guard let key = id.positionKey, try await notes.delete(item: key, of: user) else { throw SubsonicError.notFound("Bookmark") }
    }
}
