import DualPlayer
import Feeds
import Foundation
import JukeCore
import JukePlatform

/// Subscriptions moved between podcast apps as OPML.
extension PodcastService {
    /// The most shows one import takes.
    static let maxImported = 2000

    /// An account's shows as OPML 2.0 (Juke's demo show, which lives on this server only, left out).
    public func exportOPML(of user: UserID) async throws -> String {
        let shows = try await store.subscriptions(of: user).filter { $0.podcast.feedURL != Podcast.demoFeed }
        return OPML.write(shows.map { OPML.Subscription(feedURL: $0.podcast.feedURL, title: $0.podcast.title, siteURL: $0.podcast.link) })
    }

    /// Subscribes `user` to every feed of an OPML file. Shows new to the server are stored
    /// at once and due, so the refresher reads them within a minute; a feed that fails says so
    /// on its show, as any failing feed does. A show is one row for every account that follows
    /// its feed, so its title and site come from the feed only: the file's names for them are
    /// one person's words, and would show to everyone else who subscribes. Until the first
    /// read, the show is named by its address.
    public func importOPML(_ bytes: [UInt8], for user: UserID) async throws -> (added: Int, already: Int, skipped: [String]) {
        let entries: [OPML.Subscription]
        do {
            entries = try await reading.read { try OPML.read(bytes, limit: Self.maxImported) }
        } catch OPML.ReadError.tooMany {
            throw APIError(status: .unprocessableContent, code: "too_many", message: "An import takes at most \(Self.maxImported) shows.", field: "body")
        } catch let error as OPML.ReadError {
            throw APIError(status: .unprocessableContent, code: "not_opml", message: "That file is not an OPML subscription list: \(error)", field: "body")
        }
        let now = clock.now()
        var added = 0
        var already = 0
        var skipped: [String] = []
        for entry in entries {
            guard let url = try? Self.feedAddress(entry.feedURL), url != Podcast.demoFeed else {
                skipped.append(String(entry.feedURL.prefix(300)))
                continue
            }
            if try await followUnread(user, feedURL: url, now: now) { added += 1 } else { already += 1 }
        }
        logger.info("podcasts imported", metadata: ["added": "\(added)", "already": "\(already)", "skipped": "\(skipped.count)"])
        return (added, already, skipped)
    }

    /// Follows a feed without reading it first (an imported or synced list may name hundreds):
    /// a show Juke does not know is stored under its address, due at once, and the refresher
    /// reads it. False when `user` already followed it.
    func followUnread(_ user: UserID, feedURL url: String, now: Date) async throws -> Bool {
        let podcast: Podcast
        if let known = try await store.podcast(feedURL: url) {
            podcast = known
        } else {
            podcast = try await store.add(
                Podcast(
                    id: PodcastID(rawValue: UUID()), feedURL: url, title: url,
                    schedule: FeedSchedule(url: url, now: now, interval: refreshInterval), addedAt: now))
        }
        guard try await store.subscription(user, to: podcast.id) == nil else { return false }
        try await store.subscribe(user, to: podcast.id, settings: Subscription(), at: now)
        _ = try await history?.recordChange(user, feedURL: podcast.feedURL, added: true, device: nil, now: now)
        return true
    }
}
