import Foundation
import JukeCore
import Storage

/// getPlayQueue, savePlayQueue and the indexBasedQueue extension's getPlayQueueByIndex and
/// savePlayQueueByIndex: the queue a person carries from one player to the next, one per
/// account. Both forms save the same queue (kept by index, so a song may be there twice);
/// the id form names the current song by its id, the index form by its place.
enum PlayQueueEndpoints {
    /// The queue's songs (ids the library has) as the call names them.
    static func songs(_ parameters: SubsonicParameters, library: LibraryStore) async throws -> [String] {
        try await PlaylistEndpoints.songs(parameters, "id", library: library)
    }

    static func position(_ parameters: SubsonicParameters) throws(SubsonicError) -> Int {
        try parameters.int("position", default: 0, in: 0...Int(Int32.max) * 1000) ?? 0
    }

    /// The saved queue with the songs that left the library left out (the current one moves
    /// to the next still there; if none is, to none, at its start).
    static func load(_ user: UserID, _ store: SubsonicPlayQueueStore, _ library: LibraryStore) async throws -> (
        SubsonicPlayQueueStore.Queue, [Track]
    )? {
        guard var queue = try await store.queue(user: user) else { return nil }
        let found = Dictionary(try await library.tracks(ids: queue.trackIDs.compactMap(TrackID.init)).map { ($0.id.description, $0) }) { a, _ in a }
        var tracks: [Track] = []
        var current: Int?
        for (i, id) in queue.trackIDs.enumerated() {
            guard let track = found[id] else { continue }
            if current == nil, let was = queue.currentIndex, i >= was {
                current = tracks.count
                if i != was { queue.positionMillis = 0 }
            }
            tracks.append(track)
        }
        if current == nil { queue.positionMillis = 0 }
        queue.currentIndex = tracks.isEmpty ? nil : current ?? 0
        return (queue, tracks)
    }

    static func element(_ queue: SubsonicPlayQueueStore.Queue, _ tracks: [Track], username: String, byIndex: Bool) -> SubsonicElement {
        var e = SubsonicElement()
        if byIndex {
            e.add("currentIndex", queue.currentIndex)
        } else {
            e.add("current", queue.currentIndex.map { SubsonicID.track(tracks[$0].id).text })
        }
        e.add("position", queue.positionMillis)
        e.add("username", username)
        e.add("changed", SubsonicItems.date(queue.changedAt))
        e.add("changedBy", queue.changedBy)
        e.add("entry", list: tracks.map(SubsonicItems.song))
        return e
    }

    static func all(platform: Platform, store: SubsonicPlayQueueStore) -> [SubsonicEndpoint] {
        let library = platform.library
        @Sendable func save(_ call: SubsonicCall, ids: [String], current: Int?) async throws -> SubsonicReply {
            let queue = SubsonicPlayQueueStore.Queue(
                trackIDs: ids, currentIndex: ids.isEmpty ? nil : current, positionMillis: ids.isEmpty ? 0 : try position(call.parameters),
                changedAt: platform.clock.now(), changedBy: String((call.parameters.string("c") ?? "").prefix(100)))
            try await store.save(queue, user: try call.user.id)
            return .empty
        }
        return [
            SubsonicEndpoint("getPlayQueue") { call in
                let me = try call.user
                // No saved queue: the envelope alone (a queue needs its date and player).
                guard let (queue, tracks) = try await load(me.id, store, library) else { return .empty }
                return .element("playQueue", element(queue, tracks, username: me.username, byIndex: false))
            },
            SubsonicEndpoint("getPlayQueueByIndex") { call in
                let me = try call.user
                guard let (queue, tracks) = try await load(me.id, store, library) else { return .empty }
                return .element("playQueueByIndex", element(queue, tracks, username: me.username, byIndex: true))
            },
            SubsonicEndpoint("savePlayQueue") { call in
                let ids = try await songs(call.parameters, library: library)
                guard !ids.isEmpty else { return try await save(call, ids: [], current: nil) }
                // OpenSubsonic: `current` is required with songs and must be one of them.
                let currentText = try call.parameters.required("current")
                guard case .track(let current)? = SubsonicID(currentText), let index = ids.firstIndex(of: current.description) else {
                    throw SubsonicError.invalid("current", "must be one of the queue's songs.")
                }
                return try await save(call, ids: ids, current: index)
            },
            SubsonicEndpoint("savePlayQueueByIndex") { call in
                let ids = try await songs(call.parameters, library: library)
                let given = call.parameters.string("currentIndex").flatMap { $0.isEmpty ? nil : $0 }
                guard !ids.isEmpty else {
                    // Clearing the queue: currentIndex must not be set.
                    if given != nil { throw SubsonicError.invalid("currentIndex", "must not be set without songs.") }
                    return try await save(call, ids: [], current: nil)
                }
                // The extension: an index outside the queue (or none) is error 10.
                guard let given, let index = Int(given), ids.indices.contains(index) else {
                    throw SubsonicError(.missingParameter, "currentIndex: must be between 0 and \(ids.count - 1).")
                }
                return try await save(call, ids: ids, current: index)
            },
        ]
    }
}
