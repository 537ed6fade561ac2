import Library
import Logging
import Storage

/// Keeps the in-memory search index in step with the library. Before each search it reads
/// the library's generation counter (one indexed row). When another server, a scan or the
/// command line has changed the library, it rebuilds the index in the background and keeps
/// answering from the previous one until the new one is ready (a 100,000-track index takes
/// seconds to build; nobody should wait for it). Only the very first search waits.
public actor CatalogSearch {
    private let store: LibraryStore
    private let snapshot: LibrarySnapshot
    private let logger: Logger
    /// Where a finished rebuild is swapped in (stopped at shutdown, with the rebuild).
    private let background: BackgroundWork
    private var index: LibrarySearchIndex?
    /// The rebuild under way: awaited by the first search (and by `install`), shared by all.
    private var rebuilding: (generation: Int, task: Task<LibrarySearchIndex, any Error>)?

    init(store: LibraryStore, snapshot: LibrarySnapshot, background: BackgroundWork, logger: Logger) {
        self.store = store
        self.background = background
        self.snapshot = snapshot
        self.logger = logger
    }

    public func current() async throws -> LibrarySearchIndex {
        let generation = try await store.generation()
        if let index, index.generation == generation { return index }
        if rebuilding?.generation != generation {
            let snapshot = self.snapshot
            let task = Task {
                let library = try await snapshot.current()
                return LibrarySearchIndex(tracks: library.tracks, generation: library.generation)
            }
            rebuilding = (generation, task)
            background.start("search index rebuild") {
                await withTaskCancellationHandler {
                    await self.install(task)
                } onCancel: {
                    task.cancel()
                }
            }
        }
        if let index { return index }
        guard let rebuilding else { return LibrarySearchIndex(tracks: [], generation: -1) }
        return try await rebuilding.task.value
    }

    /// Swaps in a finished index unless a newer one is already there. A failed rebuild is
    /// logged (searches keep the previous index, and the next one tries again).
    private func install(_ task: Task<LibrarySearchIndex, any Error>) async {
        let fresh: LibrarySearchIndex
        do {
            fresh = try await task.value
        } catch {
            logger.error("search index not rebuilt: searches answer from the previous library", metadata: ["error": "\(error)"])
            // Only this rebuild is forgotten: a newer one may have started meanwhile.
            if rebuilding?.task == task { rebuilding = nil }
            return
        }
        if fresh.generation >= (index?.generation ?? -1) { index = fresh }
        if rebuilding?.generation == fresh.generation { rebuilding = nil }
    }
}
