import Foundation
import JukeCore

/// Who is playing what in Subsonic players right now (`scrobble` with `submission=false`,
/// read by `getNowPlaying`): one entry per account and player, kept in memory, as what is
/// playing is gone when the server restarts anyway. An entry lasts its song's length and a
/// few minutes more, so a player that stops without saying so drops off the list.
actor SubsonicNowPlaying {
    struct Entry: Sendable, Equatable {
        let username: String
        let player: String
        let playerID: Int
        let track: TrackID
        let since: Date
        let until: Date
    }

    /// The most players listed at once; the oldest go first past it.
    static let capacity = 1_000
    /// How long past its song's end an entry stays.
    static let grace: TimeInterval = 5 * 60

    private var entries: [String: Entry] = [:]
    private var playerIDs: [String: Int] = [:]

    func playing(user: UserID, username: String, player: String, track: TrackID, duration: Double, at now: Date) {
        let key = user.description + "\u{1F}" + player
        let id = playerIDs[key] ?? (playerIDs.count + 1)
        if playerIDs.count < Self.capacity * 2 { playerIDs[key] = id }
        entries[key] = Entry(
            username: username, player: player, playerID: id, track: track, since: now,
            until: now.addingTimeInterval(max(duration, 0) + Self.grace))
        if entries.count > Self.capacity, let oldest = entries.min(by: { $0.value.since < $1.value.since })?.key {
            entries[oldest] = nil
        }
    }

    /// What is playing at `now`, the latest first.
    func current(at now: Date) -> [Entry] {
        entries = entries.filter { $0.value.until > now }
        return entries.values.sorted { ($0.since, $0.playerID) > ($1.since, $1.playerID) }
    }
}
