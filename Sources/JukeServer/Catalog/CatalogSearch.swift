import Library
import Storage

/// Keeps the in-memory search index in step with the library. Before each search it reads
/// the library's generation counter (one indexed row); when another server, a scan or the
/// command line has changed the library, it rebuilds the index once and swaps it in.
actor CatalogSearch {
    private let store: LibraryStore
    private var index = LibrarySearchIndex(tracks: [], generation: -1)
    private var rebuilding: Task<LibrarySearchIndex, any Error>?

    init(store: LibraryStore) { self.store = store }

    func current() async throws -> LibrarySearchIndex {
        let generation = try await store.generation()
        if generation == index.generation { return index }
        if let rebuilding { return try await rebuilding.value }
        let store = self.store
        let task = Task { LibrarySearchIndex(tracks: try await store.allTracks(), generation: generation) }
        rebuilding = task
        defer { rebuilding = nil }
        let fresh = try await task.value
        if fresh.generation >= index.generation { index = fresh }
        return index
    }
}
