public import JukeCore
public import Storage

/// Every library track, read once per library generation and shared by the apps that pick
/// songs (TuneTrivia's rounds, RunBeat's phases, Back2Back's DJ) and the search index: a
/// pick costs one indexed read of the generation counter, not a read of the whole library.
/// When a scan, another server or the command line changes the library its generation moves
/// and the next caller reads it again; callers asking meanwhile share that one read.
public actor LibrarySnapshot {
    /// The library as it was at `generation`.
    public struct Tracks: Sendable {
        public let generation: Int
        public let tracks: [Track]
    }

    private let store: LibraryStore
    private var latest: Tracks?
    private var loading: (generation: Int, task: Task<Tracks, any Error>)?
    /// How many times the whole library was read (what the tests count).
    public private(set) var loads = 0

    public init(store: LibraryStore) { self.store = store }

    /// The library as it is now (read again only if its generation moved).
    public func current() async throws -> Tracks {
        let generation = try await store.generation()
        if let latest, latest.generation == generation { return latest }
        if let loading, loading.generation == generation { return try await loading.task.value }
        let store = self.store
        let task = Task { Tracks(generation: generation, tracks: try await store.allTracks()) }
        loading = (generation, task)
        loads += 1
        defer { if loading?.generation == generation { loading = nil } }
        let fresh = try await task.value
        if fresh.generation >= (latest?.generation ?? -1) { latest = fresh }
        return fresh
    }

    /// Every track of the library as it is now.
    public func tracks() async throws -> [Track] { try await current().tracks }
}
