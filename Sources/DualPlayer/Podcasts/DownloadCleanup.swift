public import Foundation

/// Which downloaded episodes go when the server's podcast storage is over its limit: only
/// episodes every subscriber of their show has played, the longest-held first, until the
/// total fits. An unplayed episode is never removed to make room: a limit that unplayed
/// episodes alone exceed refuses new downloads instead (`hasRoom`).
public enum DownloadCleanup {
    public struct Held: Sendable, Equatable {
        public var id: EpisodeID
        public var bytes: Int64
        public var playedByAll: Bool
        public var finishedAt: Date?

        public init(id: EpisodeID, bytes: Int64, playedByAll: Bool, finishedAt: Date?) {
            self.id = id
            self.bytes = bytes
            self.playedByAll = playedByAll
            self.finishedAt = finishedAt
        }
    }

    /// The downloads to remove so that what is held fits in `limit` bytes.
    public static func toRemove(_ held: [Held], limit: Int64) -> [EpisodeID] {
        var total = held.reduce(Int64(0)) { $0 + max(0, $1.bytes) }
        guard total > limit else { return [] }
        var out: [EpisodeID] = []
        let candidates = held.filter(\.playedByAll).sorted {
            ($0.finishedAt ?? .distantPast, $0.id.description) < ($1.finishedAt ?? .distantPast, $1.id.description)
        }
        for episode in candidates where total > limit {
            out.append(episode.id)
            total -= max(0, episode.bytes)
        }
        return out
    }

    /// Whether a download of `bytes` (its declared length; 0 when unknown) fits once the
    /// played episodes are cleaned up.
    public static func hasRoom(for bytes: Int64, _ held: [Held], limit: Int64) -> Bool {
        let kept = held.filter { !$0.playedByAll }.reduce(Int64(0)) { $0 + max(0, $1.bytes) }
        return kept + max(0, bytes) <= limit
    }
}
