public import Foundation

/// What each persona played in the last 24 hours, so it does not repeat itself across
/// sessions. The songs are sent to the AI as exclusions and checked again after matching.
public struct SongMemory: Sendable, Codable, Equatable {
    public struct Remembered: Sendable, Codable, Equatable {
        public var key: SongKey
        public var artist: String
        public var title: String
        public var playedAt: Date

        public init(key: SongKey, artist: String, title: String, playedAt: Date) {
            self.key = key
            self.artist = artist
            self.title = title
            self.playedAt = playedAt
        }
    }

    /// How long a song is remembered.
    public static let window: TimeInterval = 24 * 60 * 60

    public private(set) var songs: [PersonaID: [Remembered]]

    public init(songs: [PersonaID: [Remembered]] = [:]) { self.songs = songs }

    public mutating func remember(_ song: Song, persona: PersonaID, at now: Date) {
        let key = SongKey(song)
        var list = (songs[persona] ?? []).filter { !$0.key.matches(key) && now.timeIntervalSince($0.playedAt) < Self.window }
        list.append(Remembered(key: key, artist: song.artist, title: song.title, playedAt: now))
        songs[persona] = list
    }

    /// Puts back a memory read from storage, as it was.
    public mutating func restore(_ remembered: Remembered, persona: PersonaID) {
        songs[persona, default: []].append(remembered)
    }

    /// Whether `persona` played this song within the window before `now`.
    public func recalls(_ key: SongKey, persona: PersonaID, at now: Date) -> Bool {
        (songs[persona] ?? []).contains { $0.key.matches(key) && now.timeIntervalSince($0.playedAt) < Self.window }
    }

    /// The songs `persona` played within the window, newest first (for prompts).
    public func recent(persona: PersonaID, at now: Date) -> [Remembered] {
        (songs[persona] ?? []).filter { now.timeIntervalSince($0.playedAt) < Self.window }.sorted { $0.playedAt > $1.playedAt }
    }

    /// Drops what is older than the window.
    public mutating func prune(at now: Date) {
        for (persona, list) in songs {
            let kept = list.filter { now.timeIntervalSince($0.playedAt) < Self.window }
            songs[persona] = kept.isEmpty ? nil : kept
        }
    }

    /// Forgets one persona's songs, or everyone's.
    public mutating func clear(persona: PersonaID? = nil) {
        if let persona { songs[persona] = nil } else { songs = [:] }
    }
}
