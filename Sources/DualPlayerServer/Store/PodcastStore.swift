import DualPlayer
import Foundation
import JukeCore
import SQLKit
import Storage

/// Podcasts' rows: shows (shared by their subscribers), subscriptions, episodes and played
/// marks. Played marks keep the newest by the device's `updated_at` in one statement, as
/// positions do.
public struct PodcastStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    // MARK: Shows

    /// Adds a show unless one with this feed is there; returns the one stored.
    public func add(_ podcast: Podcast) async throws -> Podcast {
        let schedule = try JSONColumn.encode(podcast.schedule)
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO dual_podcasts (id, feed_url, title, author, summary, image_url, link, schedule, next_fetch, last_fetch, added_at)
                VALUES (\(bind: podcast.id.description), \(bind: podcast.feedURL), \(bind: podcast.title), \(bind: podcast.author),
                        \(bind: podcast.summary), \(bind: podcast.imageURL), \(bind: podcast.link), \(bind: schedule),
                        \(bind: podcast.schedule.nextFetch.timeIntervalSince1970), \(bind: podcast.lastFetch?.timeIntervalSince1970),
                        \(bind: podcast.addedAt.timeIntervalSince1970))
                ON CONFLICT (feed_url) DO NOTHING
                """
            ).run()
        }
        guard let stored = try await self.podcast(feedURL: podcast.feedURL) else { throw StorageError.notFound("podcast \(podcast.feedURL)") }
        return stored
    }

    /// Writes what a fetch learnt: the show's description and its schedule.
    public func update(_ podcast: Podcast) async throws {
        let schedule = try JSONColumn.encode(podcast.schedule)
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE dual_podcasts SET title = \(bind: podcast.title), author = \(bind: podcast.author), summary = \(bind: podcast.summary),
                    image_url = \(bind: podcast.imageURL), link = \(bind: podcast.link), schedule = \(bind: schedule),
                    next_fetch = \(bind: podcast.schedule.nextFetch.timeIntervalSince1970), last_fetch = \(bind: podcast.lastFetch?.timeIntervalSince1970)
                WHERE id = \(bind: podcast.id.description)
                """
            ).run()
        }
    }

    /// Moves a show to its feed's new address. When another show already lives there, its
    /// subscribers are joined to it and this one is removed; the show kept is returned.
    public func move(_ podcast: Podcast, to url: String) async throws -> Podcast {
        try await database.transaction { db in
            if let other = try await db.raw("SELECT id FROM dual_podcasts WHERE feed_url = \(bind: url)").first() {
                let otherID = try other.decode(column: "id", as: String.self)
                guard otherID != podcast.id.description else { return }
                try await db.raw(
                    """
                    INSERT INTO dual_subscriptions (user_id, podcast_id, settings, added_at)
                    SELECT user_id, \(bind: otherID), settings, added_at FROM dual_subscriptions WHERE podcast_id = \(bind: podcast.id.description)
                    ON CONFLICT (user_id, podcast_id) DO NOTHING
                    """
                ).run()
                try await db.raw("DELETE FROM dual_podcasts WHERE id = \(bind: podcast.id.description)").run()
            } else {
                try await db.raw("UPDATE dual_podcasts SET feed_url = \(bind: url) WHERE id = \(bind: podcast.id.description)").run()
            }
        }
        guard let kept = try await self.podcast(feedURL: url) else { throw StorageError.notFound("podcast \(url)") }
        return kept
    }

    public func podcast(_ id: PodcastID) async throws -> Podcast? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM dual_podcasts WHERE id = \(bind: id.description)").first().map(Self.podcast)
        }
    }

    public func podcast(feedURL: String) async throws -> Podcast? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM dual_podcasts WHERE feed_url = \(bind: feedURL)").first().map(Self.podcast)
        }
    }

    /// Shows whose feed is due, soonest first.
    public func due(at now: Date, limit: Int) async throws -> [Podcast] {
        try await database.withConnection { db in
            try await db.raw(
                "SELECT * FROM dual_podcasts WHERE next_fetch <= \(bind: now.timeIntervalSince1970) ORDER BY next_fetch LIMIT \(bind: limit)"
            ).all().map(Self.podcast)
        }
    }

    /// Takes a due show for this server: its next fetch is pushed to `until` only if nobody
    /// changed it since it was read, so of several servers on one database one fetches it.
    public func claim(_ podcast: Podcast, until: Date) async throws -> Bool {
        try await database.withConnection { db in
            let rows = try await db.raw(
                """
                UPDATE dual_podcasts SET next_fetch = \(bind: until.timeIntervalSince1970)
                WHERE id = \(bind: podcast.id.description) AND next_fetch = \(bind: podcast.schedule.nextFetch.timeIntervalSince1970)
                RETURNING id
                """
            ).all()
            return !rows.isEmpty
        }
    }

    /// Removes a show nobody subscribes to any more (its episodes and marks go with it); the
    /// storage keys of its downloaded files are returned for deletion.
    public func removeIfUnsubscribed(_ id: PodcastID) async throws -> [String]? {
        try await database.transaction { db in
            let left = try await db.raw("SELECT 1 AS one FROM dual_subscriptions WHERE podcast_id = \(bind: id.description) LIMIT 1").first()
            guard left == nil else { return nil }
            let files = try await db.raw("SELECT download FROM dual_episodes WHERE podcast_id = \(bind: id.description) AND download IS NOT NULL")
                .all().compactMap { row in try row.decode(column: "download", as: String?.self).map { try JSONColumn.decode(EpisodeDownload.self, $0).file } }
            try await db.raw("DELETE FROM dual_podcasts WHERE id = \(bind: id.description)").run()
            return files
        }
    }

    // MARK: Subscriptions

    public func subscribe(_ user: UserID, to podcast: PodcastID, settings: Subscription, at now: Date) async throws {
        let json = try JSONColumn.encode(settings)
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO dual_subscriptions (user_id, podcast_id, settings, added_at)
                VALUES (\(bind: user.description), \(bind: podcast.description), \(bind: json), \(bind: now.timeIntervalSince1970))
                ON CONFLICT (user_id, podcast_id) DO NOTHING
                """
            ).run()
        }
    }

    /// False when `user` did not subscribe to it.
    public func unsubscribe(_ user: UserID, from podcast: PodcastID) async throws -> Bool {
        try await database.withConnection { db in
            !(try await db.raw(
                "DELETE FROM dual_subscriptions WHERE user_id = \(bind: user.description) AND podcast_id = \(bind: podcast.description) RETURNING podcast_id"
            ).all()).isEmpty
        }
    }

    public func subscription(_ user: UserID, to podcast: PodcastID) async throws -> Subscription? {
        try await database.withConnection { db in
            try await db.raw(
                "SELECT settings FROM dual_subscriptions WHERE user_id = \(bind: user.description) AND podcast_id = \(bind: podcast.description)"
            ).first().map { try JSONColumn.decode(Subscription.self, try $0.decode(column: "settings", as: String.self)) }
        }
    }

    public func save(_ settings: Subscription, of user: UserID, for podcast: PodcastID) async throws {
        let json = try JSONColumn.encode(settings)
        try await database.withConnection { db in
            try await db.raw(
                "UPDATE dual_subscriptions SET settings = \(bind: json) WHERE user_id = \(bind: user.description) AND podcast_id = \(bind: podcast.description)"
            ).run()
        }
    }

    /// An account's shows, in the order subscribed, each with its settings, how many episodes
    /// it has and how many of them the account has not played.
    public func subscriptions(of user: UserID) async throws -> [(podcast: Podcast, settings: Subscription, episodes: Int, unplayed: Int)] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT p.*, s.settings,
                    (SELECT COUNT(*) FROM dual_episodes e WHERE e.podcast_id = p.id) AS episode_count,
                    (SELECT COUNT(*) FROM dual_episodes e WHERE e.podcast_id = p.id AND NOT EXISTS (
                        SELECT 1 FROM dual_episode_played m WHERE m.episode_id = e.id AND m.user_id = s.user_id AND m.played)) AS unplayed
                FROM dual_subscriptions s JOIN dual_podcasts p ON p.id = s.podcast_id
                WHERE s.user_id = \(bind: user.description) ORDER BY s.added_at, p.title
                """
            ).all().map { row in
                (
                    try Self.podcast(row), try JSONColumn.decode(Subscription.self, try row.decode(column: "settings", as: String.self)),
                    try row.decode(column: "episode_count", as: Int.self), try row.decode(column: "unplayed", as: Int.self)
                )
            }
        }
    }

    // MARK: Episodes

    /// Stores a feed's episodes: new ones added, known ones (by guid) updated as the feed now
    /// describes them. Episodes the feed no longer lists are kept (a feed shows its latest
    /// hundred; what someone played or downloaded stays).
    public func store(_ items: [(guid: String, title: String, published: Date?, details: EpisodeDetails)], of podcast: PodcastID, at now: Date)
        async throws
    {
        guard !items.isEmpty else { return }
        var seen = Set<String>()
        let unique = items.filter { seen.insert($0.guid).inserted }
        try await database.transaction { db in
            for batch in stride(from: 0, to: unique.count, by: 200).map({ Array(unique[$0..<min($0 + 200, unique.count)]) }) {
                var values: [SQLQueryString] = []
                for item in batch {
                    let details = try JSONColumn.encode(item.details)
                    values.append(
                        """
                        (\(bind: UUID().uuidString.lowercased()), \(bind: podcast.description), \(bind: item.guid), \(bind: item.title),
                         \(bind: item.published?.timeIntervalSince1970), \(bind: details), \(bind: now.timeIntervalSince1970))
                        """)
                }
                try await db.raw(
                    """
                    INSERT INTO dual_episodes (id, podcast_id, guid, title, published, details, seen_at) VALUES \(values.joined(separator: ", "))
                    ON CONFLICT (podcast_id, guid) DO UPDATE SET title = excluded.title, published = excluded.published,
                        details = excluded.details, seen_at = excluded.seen_at
                    """
                ).run()
            }
        }
    }

    /// A show's episodes for `user`, newest first, with played marks and saved positions.
    public func episodes(of podcast: PodcastID, for user: UserID, limit: Int, offset: Int) async throws -> [(
        episode: Episode, played: Bool, position: Double?
    )] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT e.*, m.played, pos.seconds FROM dual_episodes e
                LEFT JOIN dual_episode_played m ON m.episode_id = e.id AND m.user_id = \(bind: user.description)
                LEFT JOIN dual_positions pos ON pos.user_id = \(bind: user.description) AND pos.item = 'episode:' || e.id
                WHERE e.podcast_id = \(bind: podcast.description)
                ORDER BY e.published DESC, e.seen_at DESC, e.title LIMIT \(bind: limit) OFFSET \(bind: offset)
                """
            ).all().map { row in
                (try Self.episode(row), try row.decode(column: "played", as: Bool?.self) ?? false, try row.decode(column: "seconds", as: Double?.self))
            }
        }
    }

    /// The newest episodes of every show `user` subscribes to, newest first (an episode
    /// without a date by when Juke first saw it).
    public func newestEpisodes(for user: UserID, limit: Int) async throws -> [Episode] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT e.* FROM dual_episodes e JOIN dual_subscriptions s ON s.podcast_id = e.podcast_id AND s.user_id = \(bind: user.description)
                ORDER BY COALESCE(e.published, e.seen_at) DESC, e.title LIMIT \(bind: limit)
                """
            ).all().map(Self.episode)
        }
    }

    /// One episode for `user`, with their played mark and saved position.
    public func episode(_ id: EpisodeID, for user: UserID) async throws -> (episode: Episode, played: Bool, position: Double?)? {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT e.*, m.played, pos.seconds FROM dual_episodes e
                LEFT JOIN dual_episode_played m ON m.episode_id = e.id AND m.user_id = \(bind: user.description)
                LEFT JOIN dual_positions pos ON pos.user_id = \(bind: user.description) AND pos.item = 'episode:' || e.id
                WHERE e.id = \(bind: id.description)
                """
            ).first().map { row in
                (try Self.episode(row), try row.decode(column: "played", as: Bool?.self) ?? false, try row.decode(column: "seconds", as: Double?.self))
            }
        }
    }

    public func episodeCount(of podcast: PodcastID) async throws -> Int {
        try await database.withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM dual_episodes WHERE podcast_id = \(bind: podcast.description)").first()?
                .decode(column: "n", as: Int.self) ?? 0
        }
    }

    public func episode(_ id: EpisodeID) async throws -> Episode? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM dual_episodes WHERE id = \(bind: id.description)").first().map(Self.episode)
        }
    }

    /// Marks an episode played or not unless a newer mark is stored; returns the mark kept.
    public func setPlayed(_ played: Bool, episode: EpisodeID, by user: UserID, updatedAt: Int64) async throws -> Bool {
        try await database.transaction { db in
            try await db.raw(
                """
                INSERT INTO dual_episode_played (user_id, episode_id, played, updated_at)
                VALUES (\(bind: user.description), \(bind: episode.description), \(bind: played), \(bind: updatedAt))
                ON CONFLICT (user_id, episode_id) DO UPDATE SET played = excluded.played, updated_at = excluded.updated_at
                WHERE excluded.updated_at > dual_episode_played.updated_at
                """
            ).run()
            return try await db.raw(
                "SELECT played FROM dual_episode_played WHERE user_id = \(bind: user.description) AND episode_id = \(bind: episode.description)"
            ).first()?.decode(column: "played", as: Bool.self) ?? played
        }
    }

    /// Whether `user` subscribes to the show this episode belongs to.
    public func canSee(_ episode: Episode, user: UserID) async throws -> Bool {
        try await subscription(user, to: episode.podcast) != nil
    }

    // MARK: Downloads

    public func setDownload(_ download: EpisodeDownload?, of episode: EpisodeID) async throws {
        let json = try download.map(JSONColumn.encode)
        try await database.withConnection { db in
            try await db.raw("UPDATE dual_episodes SET download = \(bind: json) WHERE id = \(bind: episode.description)").run()
        }
    }

    /// A download's progress, written only while it is still downloading (a late write never
    /// turns a finished or removed download back).
    public func updateProgress(_ download: EpisodeDownload, of episode: EpisodeID) async throws {
        let json = try JSONColumn.encode(download)
        try await database.withConnection { db in
            try await db.raw(
                "UPDATE dual_episodes SET download = \(bind: json) WHERE id = \(bind: episode.description) AND download LIKE '%\"status\":\"downloading\"%'"
            ).run()
        }
    }

    /// Every downloaded (or downloading) episode, with whether all of its show's subscribers
    /// have played it: what the storage limit's cleanup chooses from.
    public func downloads() async throws -> [(episode: Episode, playedByAll: Bool)] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT e.*, NOT EXISTS (
                    SELECT 1 FROM dual_subscriptions s WHERE s.podcast_id = e.podcast_id AND NOT EXISTS (
                        SELECT 1 FROM dual_episode_played m WHERE m.episode_id = e.id AND m.user_id = s.user_id AND m.played)) AS played_by_all
                FROM dual_episodes e WHERE e.download IS NOT NULL
                """
            ).all().map { row in (try Self.episode(row), try row.decode(column: "played_by_all", as: Bool.self)) }
        }
    }

    // MARK: Rows

    static func podcast(_ row: any SQLRow) throws -> Podcast {
        Podcast(
            id: try decodeID(row, "id"), feedURL: try row.decode(column: "feed_url", as: String.self), title: try row.decode(column: "title", as: String.self),
            author: try row.decode(column: "author", as: String?.self), summary: try row.decode(column: "summary", as: String?.self),
            imageURL: try row.decode(column: "image_url", as: String?.self), link: try row.decode(column: "link", as: String?.self),
            schedule: try JSONColumn.decode(FeedSchedule.self, try row.decode(column: "schedule", as: String.self)),
            lastFetch: try row.decode(column: "last_fetch", as: Double?.self).map(Date.init(timeIntervalSince1970:)),
            addedAt: Date(timeIntervalSince1970: try row.decode(column: "added_at", as: Double.self)))
    }

    static func episode(_ row: any SQLRow) throws -> Episode {
        Episode(
            id: try decodeID(row, "id"), podcast: try decodeID(row, "podcast_id"), guid: try row.decode(column: "guid", as: String.self),
            title: try row.decode(column: "title", as: String.self),
            published: try row.decode(column: "published", as: Double?.self).map(Date.init(timeIntervalSince1970:)),
            details: try JSONColumn.decode(EpisodeDetails.self, try row.decode(column: "details", as: String.self)),
            download: try row.decode(column: "download", as: String?.self).map { try JSONColumn.decode(EpisodeDownload.self, $0) })
    }
}
