import Foundation
import JukeCore
import SQLKit
import Storage

/// The songs Back2Back sessions played, as plays of library tracks: each entry that started
/// (the history and the song playing) is one play, at the time it started.
enum SessionPlays {
    /// Only what is needed of a stored session state, so that a change to the session's
    /// other fields never stops this migration.
    private struct StoredState: Decodable {
        struct Entry: Decodable {
            struct Song: Decodable { let track: String }
            let song: Song
            let startedAt: Date?
        }
        let history: [Entry]?
        let nowPlaying: Entry?
    }

    /// The plays in one stored state (none when it cannot be read: a state is never lost
    /// over a count).
    static func plays(inState text: String) -> [CatalogPlays.Play] {
        guard let state = try? JSONColumn.decode(StoredState.self, text) else { return [] }
        return ((state.history ?? []) + (state.nowPlaying.map { [$0] } ?? [])).compactMap { entry in
            guard let at = entry.startedAt, let track = TrackID(entry.song.track) else { return nil }
            return CatalogPlays.Play(track: track, at: at)
        }
    }

    /// Back2Back migration 3: every session's plays so far, counted.
    static func backfill(_ db: any SQLDatabase) async throws {
        var plays: [CatalogPlays.Play] = []
        for row in try await db.raw("SELECT state FROM b2b_sessions").all() {
            plays += Self.plays(inState: try row.decode(column: "state", as: String.self))
        }
        try await CatalogPlays.record(plays, on: db)
    }
}
