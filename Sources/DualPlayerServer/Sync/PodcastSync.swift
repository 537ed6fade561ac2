import DualPlayer
import Foundation
import JukeCore
import JukePlatform
import Logging

/// Podcast sync for AntennaPod, gPodder and anything speaking gpodder.net's API, on Dual
/// Player's own state: an account's subscriptions ARE its followed shows (one list, shared by
/// all its devices, as Nextcloud's gpoddersync does), and a play action IS the episode's
/// saved position, both ways. What clients send is kept as gpodder.net keeps it (devices,
/// each feed's last change, each episode's last action of each kind), with a timestamp from
/// the account's clock so that "since" never misses a change.
public struct PodcastSync: Sendable {
    let store: PodcastSyncStore
    let podcasts: PodcastService
    let positions: DualPlayerStore
    let clock: WallClock
    let logger: Logger

    /// Seconds before "since" from which the pages' positions are sent again.
    static let pagePositionOverlap: Int64 = 300

    /// How long a login.json session lasts (AntennaPod logs in at every sync).
    static let sessionLifetime: TimeInterval = 30 * 24 * 3600

    // MARK: Sessions

    /// Sessions one account keeps at most: a client without a cookie jar starts one at every
    /// request, and the oldest go.
    static let maxSessions = 20

    func startSession(for user: UserID) async throws -> String {
        let token = Tokens.generate()
        try await store.addSession(
            tokenHash: Tokens.hash(token), user: user, expiresAt: clock.now().addingTimeInterval(Self.sessionLifetime), keep: Self.maxSessions)
        return token
    }

    func sessionUser(token: String) async throws -> UserID? {
        try await store.sessionUser(tokenHash: Tokens.hash(token), now: clock.now())
    }

    func endSession(token: String, of user: UserID) async throws {
        try await store.removeSession(tokenHash: Tokens.hash(token), user: user, now: clock.now())
    }

    // MARK: Devices

    /// The account's devices, each with the number of shows it follows (the account's: one
    /// list for all its devices).
    func devices(of user: UserID) async throws -> [(device: PodcastSyncStore.Device, subscriptions: Int)] {
        let count = try await podcasts.subscriptions(of: user).count
        return try await store.devices(of: user).map { (device: $0, subscriptions: count) }
    }

    func updateDevice(_ id: String, caption: String?, type: String?, of user: UserID) async throws {
        try await store.saveDevice(id, caption: caption, type: type, of: user, now: clock.now())
    }

    /// A device is made the first time it syncs, as on gpodder.net; at most
    /// `maxDevices` per account.
    static let maxDevices = 100

    func ensureDevice(_ id: String, of user: UserID) async throws {
        guard try await !store.hasDevice(id, of: user) else { return }
        guard try await store.countDevices(of: user) < Self.maxDevices else {
            throw RuleRefusal.conflict("An account syncs at most \(Self.maxDevices) devices.")
        }
        try await store.saveDevice(id, caption: nil, type: nil, of: user, now: clock.now())
    }

    // MARK: Subscriptions

    /// Applies a device's changes to the account's shows: a removed feed is unfollowed; an
    /// added one is followed through Dual Player's podcasts as an imported list's shows are
    /// (a show Juke does not know is read by the refresher, started at once, so a phone's
    /// first sync of fifty shows is answered at once). Returns the timestamp after them.
    func uploadSubscriptions(_ upload: GpodderWire.SubscriptionUpload, device: String, of user: UserID) async throws -> Int64 {
        try await ensureDevice(device, of: user)
        let followed = Dictionary(try await podcasts.subscriptions(of: user).map { ($0.podcast.feedURL, $0.podcast.id) }) { first, _ in first }
        for url in upload.remove {
            _ = try await store.recordChange(user, feedURL: url, added: false, device: device, now: clock.now())
            if let id = followed[url] { try await podcasts.unsubscribe(user, from: id) }
        }
        var unread = false
        for url in upload.add where followed[url] == nil {
            _ = try await store.recordChange(user, feedURL: url, added: true, device: device, now: clock.now())
            let known = try await podcasts.store.podcast(feedURL: url) != nil
            if try await podcasts.followUnread(user, feedURL: url, now: clock.now()), !known { unread = true }
        }
        if unread { podcasts.refreshDueSoon(limit: 50) }
        return try await store.currentStamp(user, now: clock.now())
    }

    /// What changed since `since`: shows followed now whose last change came after it (every
    /// followed show when `since` is 0), and feeds removed after it and not followed now.
    func subscriptionChanges(device: String, since: Int64, of user: UserID) async throws -> (add: [String], remove: [String], timestamp: Int64) {
        try await ensureDevice(device, of: user)
        let followed = try await allSubscriptions(of: user)
        let following = Set(followed)
        let changes = try await store.changes(of: user, since: since)
        let add = since == 0 ? followed : changes.filter { $0.added && following.contains($0.feedURL) }.map(\.feedURL)
        let remove = changes.filter { !$0.added && !following.contains($0.feedURL) }.map(\.feedURL)
        return (add, remove, try await store.currentStamp(user, now: clock.now()))
    }

    /// Every show the account follows, by feed (the simple API's list); Juke's demo show
    /// lives on this server only and is left out, as from an OPML export.
    func allSubscriptions(of user: UserID) async throws -> [String] {
        try await podcasts.subscriptions(of: user).map(\.podcast.feedURL).filter { $0 != Podcast.demoFeed }
    }

    /// The simple API's upload: the device's whole list, applied as the changes from the
    /// account's.
    func replaceSubscriptions(with urls: [String], device: String, of user: UserID) async throws {
        let current = Set(try await allSubscriptions(of: user))
        let wanted = Set(urls)
        let upload = GpodderWire.SubscriptionUpload(
            add: urls.filter { !current.contains($0) }, remove: current.subtracting(wanted).sorted(), updated: [])
        _ = try await uploadSubscriptions(upload, device: device, of: user)
    }

    // MARK: Episode actions

    /// Keeps the actions; a play action of an episode Dual Player knows (the account follows
    /// its show; matched by guid, else by its audio's address) becomes the episode's saved
    /// position, stamped with the action's time, the newest winning as every position does,
    /// and marks it heard when it is at its end.
    func uploadActions(_ actions: [GpodderWire.Action], of user: UserID) async throws -> Int64 {
        for device in Set(actions.compactMap(\.device)) { try await ensureDevice(device, of: user) }
        var episodesByFeed: [String: [Episode]] = [:]
        var latestPlay: [String: (index: Int, position: SavedPosition)] = [:]
        let nowMillis = Int64(clock.now().timeIntervalSince1970 * 1000)
        for (index, action) in actions.enumerated() where action.action == "play" {
            guard let position = action.position else { continue }
            if episodesByFeed[action.podcast] == nil { episodesByFeed[action.podcast] = try await followedEpisodes(action.podcast, of: user) }
            let candidates = episodesByFeed[action.podcast] ?? []
            guard
                let episode = action.guid.flatMap({ guid in candidates.first { $0.guid == guid } })
                    ?? candidates.first(where: { $0.details.audioURL == action.episode })
            else { continue }
            let key = PodcastService.episodeKey + episode.id.description
            let saved = SavedPosition(seconds: Double(position), updatedAt: Int64(action.timestamp.timeIntervalSince1970 * 1000))
                .clamped(toServerNow: nowMillis)
            if let earlier = latestPlay[key], earlier.position.updatedAt >= saved.updatedAt { continue }
            latestPlay[key] = (index, saved)
        }
        var written: [Int: (item: String, updatedAt: Int64)] = [:]
        if !latestPlay.isEmpty {
            let kept = try await positions.save(latestPlay.mapValues(\.position), of: user)
            try await podcasts.markHeard(kept, by: user)
            for (key, entry) in latestPlay where kept[key] == entry.position { written[entry.index] = (key, entry.position.updatedAt) }
        }
        let rows = actions.enumerated().map { index, action in
            (action: action, positionItem: written[index]?.item, positionUpdatedAt: written[index]?.updatedAt)
        }
        return try await store.save(rows, of: user, now: clock.now())
    }

    /// The episodes of a show the account follows, by its feed (empty when it follows none).
    private func followedEpisodes(_ feedURL: String, of user: UserID) async throws -> [Episode] {
        guard let podcast = try await podcasts.store.podcast(feedURL: feedURL), try await podcasts.store.subscription(user, to: podcast.id) != nil
        else { return [] }
        return try await podcasts.store.episodes(of: podcast.id, for: user, limit: 10_000, offset: 0).map(\.episode)
    }

    /// Actions kept since `since`, and the positions saved in Dual Player's pages since then as
    /// play actions (not for a device: they were saved on none of the client's), oldest
    /// first; `aggregated` keeps each episode's latest.
    func actions(since: Int64, podcast: String?, device: String?, aggregated: Bool, of user: UserID) async throws -> (
        actions: [GpodderWire.Action], timestamp: Int64
    ) {
        var actions = try await store.actions(of: user, since: since, podcast: podcast, device: device)
        if device == nil {
            // A page's position is stamped by its device's clock, not the account's: those of the
            // last minutes before `since` are sent again (a play action sent twice changes
            // nothing), so one saved as a timestamp was handed out is not missed.
            let sinceMillis = since == 0 ? 0 : (since - Self.pagePositionOverlap) * 1000
            for saved in try await store.pagePositions(of: user, sinceMillis: sinceMillis, podcast: podcast) {
                let position = Int(saved.position.seconds)
                let total = max(Int((saved.episode.details.duration ?? 0).rounded(.up)), position, 1)
                actions.append(
                    GpodderWire.Action(
                        podcast: saved.feedURL, episode: saved.episode.details.audioURL, guid: saved.episode.guid, device: nil, action: "play",
                        timestamp: Date(timeIntervalSince1970: Double(saved.position.updatedAt) / 1000), started: position, position: position, total: total))
            }
            actions.sort { $0.timestamp < $1.timestamp }
        }
        if aggregated {
            var latest: [String: Int] = [:]
            for (index, action) in actions.enumerated() { latest[action.episode] = index }
            actions = actions.enumerated().filter { latest[$0.element.episode] == $0.offset }.map(\.element)
        }
        return (actions, try await store.currentStamp(user, now: clock.now()))
    }
}
