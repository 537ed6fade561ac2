import DualPlayer
import Feeds
import Foundation
import JukeCore
import JukePlatform
import Logging
import Providers

/// Podcasts for the speech player: finding shows, subscribing (by the directory or by a feed's
/// address), the feeds' refreshes, episodes with each account's played marks and positions,
/// and each show's own speed and skip-silence. Loads, applies FeedSchedule's rules, stores.
public struct PodcastService: Sendable {
    let store: PodcastStore
    let fetch: FeedFetch
    let downloads: EpisodeDownloads
    let directory: ITunesSearch?
    /// Where imported subscription lists are read: off the server's threads, a few at once.
    let reading: ReadingPool
    let clock: WallClock
    let logger: Logger
    /// 0..<1, to spread refreshes (injected: tests pass a fixed one).
    let jitter: @Sendable () -> Double
    let refreshInterval: TimeInterval
    /// Where follows and unfollows are written down for podcast sync (gpodder.net's "since"),
    /// whichever way they came: the page, an imported list, a synced app.
    var history: PodcastSyncStore?

    init(
        store: PodcastStore, fetch: FeedFetch, downloads: EpisodeDownloads, directory: ITunesSearch?, reading: ReadingPool, clock: WallClock,
        logger: Logger,
        refreshInterval: TimeInterval = FeedSchedule.defaultInterval, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        history: PodcastSyncStore? = nil
    ) {
        self.store = store
        self.fetch = fetch
        self.downloads = downloads
        self.directory = directory
        self.reading = reading
        self.clock = clock
        self.logger = logger
        self.refreshInterval = refreshInterval
        self.jitter = jitter
        self.history = history
    }

    // MARK: Finding and subscribing

    public func search(_ term: String, limit: Int) async throws -> [PodcastShow] {
        let text = term.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw RuleRefusal.invalid("q", "Say what to look for: a show's name or its host.") }
        guard let directory else {
            throw APIError(
                status: .badGateway, code: "podcast_search_off", message: "Podcast search is turned off on this server; subscribe by a feed's address.")
        }
        do {
            return try await directory.podcasts(text, limit: limit)
        } catch {
            // In plain words for the person searching; what the directory answered is in the log.
            logger.warning("podcast directory failed", metadata: ["why": "\(error)"])
            if case .rateLimited(let retryAfter) = error {
                throw APIError(
                    status: .serviceUnavailable, code: "catalog_busy", message: "The podcast directory is busy. Try again in a minute.",
                    retryAfter: Int(min(max(retryAfter ?? 5, 1), 60).rounded(.up)))
            }
            throw APIError(status: .badGateway, code: "catalog_unavailable", message: "Can't reach the podcast directory right now. Try again in a moment.")
        }
    }

    /// Subscribes `user` to the feed at `address` (or a web page naming one). A show someone
    /// else subscribes to is not fetched again; a new one is read first, so a wrong address is
    /// said at once and nothing is stored for it.
    public func subscribe(_ user: UserID, to address: String) async throws -> (podcast: Podcast, created: Bool) {
        let followed = try await follow(user, to: address)
        _ = try await history?.recordChange(user, feedURL: followed.podcast.feedURL, added: true, device: nil, now: clock.now())
        return followed
    }

    private func follow(_ user: UserID, to address: String) async throws -> (podcast: Podcast, created: Bool) {
        let url = try Self.feedAddress(address)
        if let known = try await store.podcast(feedURL: url) {
            let already = try await store.subscription(user, to: known.id) != nil
            try await store.subscribe(user, to: known.id, settings: Subscription(), at: clock.now())
            return (known, !already)
        }
        let now = clock.now()
        var schedule = FeedSchedule(url: url, now: now, interval: refreshInterval)
        var result = await fetch.run(schedule, conditional: false, now: now)
        if let page = result.discovered {
            // The show's website: subscribe to the feed it names.
            if let known = try await store.podcast(feedURL: page) {
                try await store.subscribe(user, to: known.id, settings: Subscription(), at: now)
                return (known, true)
            }
            schedule = FeedSchedule(url: page, now: now, interval: refreshInterval)
            result = await fetch.run(schedule, conditional: false, now: now)
        }
        guard case .fetched = result.outcome, let info = result.info else {
            logger.notice("podcast feed refused", metadata: ["feed": "\(schedule.url)", "outcome": "\(result.outcome)"])
            throw Self.refusal(result.outcome)
        }
        // A feed that names a new home (itunes:new-feed-url) is subscribed there: apply moves
        // the schedule's address, and the next refresh reads it.
        _ = schedule.apply(result.outcome, at: now, jitter: jitter())
        var podcast = Podcast(
            id: PodcastID(rawValue: UUID()), feedURL: schedule.url, title: Self.title(info, fallback: schedule.url), author: Self.author(info),
            summary: info.description, imageURL: info.image, link: info.link, schedule: schedule, lastFetch: now, addedAt: now)
        podcast = try await store.add(podcast)
        try await storeItems(result.items, of: podcast.id, at: now)
        try await store.subscribe(user, to: podcast.id, settings: Subscription(), at: now)
        logger.info("podcast subscribed", metadata: ["feed": "\(podcast.feedURL)", "episodes": "\(result.items.count)"])
        return (podcast, true)
    }

    public func unsubscribe(_ user: UserID, from id: PodcastID) async throws {
        let feedURL = try await store.podcast(id)?.feedURL
        guard try await store.unsubscribe(user, from: id) else { throw RuleRefusal.notFound("You do not subscribe to that show.") }
        if let feedURL { _ = try await history?.recordChange(user, feedURL: feedURL, added: false, device: nil, now: clock.now()) }
        // The last subscriber gone: the show, its episodes and its downloads go.
        if let files = try await store.removeIfUnsubscribed(id) {
            for file in files { await downloads.removeFiles(file) }
        }
    }

    public func subscriptions(of user: UserID) async throws -> [(podcast: Podcast, settings: Subscription, episodes: Int, unplayed: Int)] {
        try await store.subscriptions(of: user)
    }

    /// A show `user` subscribes to, or 404.
    public func podcast(_ id: PodcastID, for user: UserID) async throws -> (Podcast, Subscription) {
        guard let podcast = try await store.podcast(id), let settings = try await store.subscription(user, to: id) else {
            throw RuleRefusal.notFound("You do not subscribe to that show.")
        }
        return (podcast, settings)
    }

    public func episodes(of id: PodcastID, for user: UserID, limit: Int, offset: Int) async throws -> (
        items: [(episode: Episode, played: Bool, position: Double?)], total: Int
    ) {
        _ = try await podcast(id, for: user)
        return (try await store.episodes(of: id, for: user, limit: limit, offset: offset), try await store.episodeCount(of: id))
    }

    /// The newest episodes of `user`'s shows, newest first.
    public func newestEpisodes(for user: UserID, limit: Int) async throws -> [Episode] {
        try await store.newestEpisodes(for: user, limit: limit)
    }

    public func saveSettings(_ settings: Subscription, of user: UserID, for id: PodcastID) async throws -> Subscription {
        _ = try await podcast(id, for: user)
        try await store.save(settings, of: user, for: id)
        return settings
    }

    /// An episode of a show `user` subscribes to, or 404.
    public func episode(_ id: EpisodeID, for user: UserID) async throws -> Episode {
        guard let episode = try await store.episode(id), try await store.canSee(episode, user: user) else {
            throw RuleRefusal.notFound("No such episode in your shows.")
        }
        return episode
    }

    public func setPlayed(_ played: Bool, episode id: EpisodeID, by user: UserID, updatedAt: Int64) async throws -> Bool {
        guard updatedAt >= 0 else { throw RuleRefusal.invalid("updated_at", "updated_at is milliseconds since 1970") }
        _ = try await episode(id, for: user)
        return try await store.setPlayed(played, episode: id, by: user, updatedAt: updatedAt)
    }

    /// Positions saved at an episode's end, or within its last seconds (`EpisodeCompletion`),
    /// mark it played, stamped with the position's time: a later "Mark unplayed" still wins.
    public func markHeard(_ positions: [String: SavedPosition], by user: UserID) async throws {
        for (key, saved) in positions where key.hasPrefix(Self.episodeKey) {
            guard let id = EpisodeID(String(key.dropFirst(Self.episodeKey.count))), let episode = try await store.episode(id),
                EpisodeCompletion.isHeard(position: saved.seconds, duration: episode.details.duration), try await store.canSee(episode, user: user)
            else { continue }
            _ = try await store.setPlayed(true, episode: id, by: user, updatedAt: saved.updatedAt)
        }
    }

    /// An episode's key among saved positions: "episode:<id>".
    static let episodeKey = "episode:"

    // MARK: Downloads

    /// Copies an episode to the server (or carries on copying it); `started` is false when it
    /// was already there.
    public func download(_ id: EpisodeID, for user: UserID) async throws -> (episode: Episode, started: Bool) {
        let episode = try await episode(id, for: user)
        let after = try await downloads.start(episode)
        return (after, after.download?.status != .ready)
    }

    /// Removes the server's copy (the episode still streams from its host).
    public func removeDownload(_ id: EpisodeID, for user: UserID) async throws {
        let episode = try await episode(id, for: user)
        guard episode.download != nil else { throw RuleRefusal.notFound("This episode is not downloaded.") }
        try await downloads.remove(episode)
    }

    // MARK: Refreshing

    /// "Refresh now": at once, unless the feed was fetched moments ago or its host asked to be
    /// left alone (Retry-After), which is said with when to try again.
    public func refreshNow(_ id: PodcastID, for user: UserID) async throws -> Podcast {
        var (podcast, _) = try await podcast(id, for: user)
        let now = clock.now()
        guard podcast.schedule.refreshNow(at: now, lastFetch: podcast.lastFetch) else {
            let wait = max(podcast.schedule.notBefore?.timeIntervalSince(now) ?? 0, FeedSchedule.minOnDemand - now.timeIntervalSince(podcast.lastFetch ?? now))
            throw RuleRefusal.tooManyAttempts("This show was refreshed moments ago, or its host asked for a pause.", retryAfter: max(1, Int(wait.rounded(.up))))
        }
        return try await refresh(podcast)
    }

    /// Every show `user` subscribes to, read again in the background (a player's "check for
    /// new episodes"): those fetched moments ago, or whose host asked for a pause, are left as
    /// they are; a feed that fails is logged and the others are still read.
    public func refreshAll(of user: UserID) async throws {
        let shows = try await store.subscriptions(of: user).map(\.podcast)
        downloads.background.start("podcast refresh") { [self] in
            for var show in shows {
                guard show.schedule.refreshNow(at: clock.now(), lastFetch: show.lastFetch) else { continue }
                do {
                    try await refresh(show)
                } catch {
                    logger.error("podcast refresh failed", metadata: ["feed": "\(show.feedURL)", "error": "\(error)"])
                }
            }
        }
    }

    /// Fetches one show's feed and applies what came back.
    @discardableResult
    public func refresh(_ podcast: Podcast) async throws -> Podcast {
        var podcast = podcast
        let now = clock.now()
        let result = await fetch.run(podcast.schedule, now: now)
        let actions = podcast.schedule.apply(result.outcome, at: now, jitter: jitter())
        podcast.lastFetch = now
        if let info = result.info {
            podcast.title = Self.title(info, fallback: podcast.title)
            podcast.author = Self.author(info) ?? podcast.author
            podcast.summary = info.description ?? podcast.summary
            podcast.imageURL = info.image ?? podcast.imageURL
            podcast.link = info.link ?? podcast.link
        }
        for action in actions {
            switch action {
            case .storeItems: try await storeItems(result.items, of: podcast.id, at: now)
            case .moved(let from, let to):
                logger.info("podcast feed moved", metadata: ["from": "\(from)", "to": "\(to)"])
                let schedule = podcast.schedule
                podcast = try await store.move(podcast, to: to)
                podcast.schedule = schedule
                podcast.lastFetch = now
            }
        }
        if case .failed(let reason, _) = result.outcome {
            logger.notice("podcast feed failed", metadata: ["feed": "\(podcast.feedURL)", "reason": "\(reason)", "failures": "\(podcast.schedule.failures)"])
        }
        try await store.update(podcast)
        return podcast
    }

    /// Reads the due feeds now, in the background (after an import, rather than at the
    /// refresher's next minute); a failure is logged by `BackgroundWork`.
    func refreshDueSoon(limit: Int) {
        downloads.background.start("podcast refresh") { [self] in _ = try await refreshDue(limit: limit) }
    }

    /// Every show whose feed is due, a few at a time; each claimed first so that servers on one
    /// database do not fetch the same feed together.
    public func refreshDue(limit: Int = 20) async throws -> Int {
        let now = clock.now()
        var done = 0
        for podcast in try await store.due(at: now, limit: limit) where podcast.schedule.isDue(at: now) {
            guard try await store.claim(podcast, until: now.addingTimeInterval(300)) else { continue }
            do {
                try await refresh(podcast)
                done += 1
            } catch {
                logger.error("podcast refresh failed", metadata: ["feed": "\(podcast.feedURL)", "error": "\(error)"])
            }
        }
        return done
    }

    /// Episode titles are cleaned as the show's is: they are the feed's text, shown to every subscriber.
    func storeItems(_ items: [FeedItem], of id: PodcastID, at now: Date) async throws {
        let episodes = items.compactMap { item in
            EpisodeDetails.from(item).map {
                (guid: $0.guid, title: TextRules.cleanedOrNil($0.title, limit: 500) ?? "Untitled episode", published: item.published, details: $0.details)
            }
        }
        try await store.store(episodes, of: id, at: now)
    }

    // MARK: Rules of the road

    /// An address a person gave: http(s) with a host (a bare "example.com/feed" is taken as
    /// https), or Juke's own demo show.
    static func feedAddress(_ text: String) throws(RuleRefusal) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed == Podcast.demoFeed { return trimmed }
        var candidate = trimmed
        let lower = candidate.lowercased()
        if lower.hasPrefix("feed://") { candidate = "https://" + candidate.dropFirst(7) }
        if lower.hasPrefix("itpc://") || lower.hasPrefix("pcast://") { candidate = "https://" + candidate.split(separator: ":", maxSplits: 1)[1].dropFirst(2) }
        if !candidate.lowercased().hasPrefix("http://") && !candidate.lowercased().hasPrefix("https://") && !candidate.contains("://") {
            candidate = "https://" + candidate
        }
        // No space anywhere, even one Foundation would encode: a typed feed address with a
        // space in it is two things pasted together.
        guard let address = WebAddress(candidate, limit: 2000), !candidate.contains(where: { $0.isWhitespace }) else {
            throw .invalid("url", "Give a feed's web address (http or https), such as https://example.com/feed.xml.")
        }
        return address.url.absoluteString
    }

    /// The show's title as its feed gives it, cleaned of control characters and bidirectional
    /// overrides (a feed is anyone's text, and the title shows to every subscriber).
    static func title(_ info: FeedInfo, fallback: String) -> String {
        TextRules.cleanedOrNil(info.title, limit: 500) ?? fallback
    }

    static func author(_ info: FeedInfo) -> String? { TextRules.cleanedOrNil(info.author, limit: 300) }

    /// A subscription's first fetch that failed, as the person subscribing is told.
    static func refusal(_ outcome: FeedSchedule.Outcome) -> any Error {
        switch outcome {
        // In plain words: what the host or the parser said in detail is in the log.
        case .gone: return APIError(status: .unprocessableContent, code: "feed_gone", message: "That show's feed is gone: its host took it down.", field: "url")
        case .failed(let reason, _) where reason.contains("private or local network"):
            return APIError(
                status: .unprocessableContent, code: "private_network", message: "Juke does not fetch feeds from inside its own network.", field: "url")
        case .failed(let reason, _) where reason.hasPrefix("Not a feed") || reason.contains("not a feed") || reason.contains("names no podcast feed"):
            return APIError(
                status: .unprocessableContent, code: "not_a_feed", message: "That address is not a podcast feed. Check it, or search for the show.",
                field: "url")
        case .failed:
            return APIError(
                status: .badGateway, code: "podcast_host_unavailable", message: "Can't reach that show's host right now. Try again in a moment.")
        case .fetched, .notModified:
            return APIError(status: .unprocessableContent, code: "not_a_feed", message: "That address is not a podcast feed.", field: "url")
        }
    }
}
