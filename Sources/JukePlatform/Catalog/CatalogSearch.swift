import Foundation
import JukeCore
import Library
import Logging
import Storage

/// Keeps the in-memory search index in step with the library and answers searches.
///
/// The index is built at start in the background (`prepare`); until it is ready a search is
/// answered by the database (each word a prefix of a stored word: correct hits, in the
/// catalog's order, without the index's ranking or typo correction), so no search waits for
/// a build. This server's scans change the index in place, batch by batch, as they save
/// (`LibraryChangeObserver`). When the library changed otherwise (another server, the command
/// line), the generation counter read before each search says so: the index is built again in
/// the background and searches answer from the previous one meanwhile.
public actor CatalogSearch: LibraryChangeObserver {
    private let store: LibraryStore
    private let logger: Logger
    /// Where a build runs (stopped at shutdown, with the build).
    private let background: BackgroundWork
    private var index: LibrarySearchIndex?
    /// The build under way and the generation it started at.
    private var building: (generation: Int, task: Task<LibrarySearchIndex, any Error>)?
    /// Batches this server's scans are saving now: while one is, a moved generation is theirs
    /// and its change is on its way (`applied`), so it starts no build.
    private var saving = 0
    /// Saved changes that arrived before the one they follow (two scans at once), by the
    /// generation they follow.
    private var waiting: [Int: LibraryStore.AppliedChanges] = [:]
    /// How many times the index was built from the whole library (what the tests count).
    public private(set) var builds = 0

    /// Awaited by each build before it reads the library (tests hold a build with it).
    private let beforeBuild: @Sendable () async -> Void

    init(store: LibraryStore, background: BackgroundWork, logger: Logger, beforeBuild: @escaping @Sendable () async -> Void = {}) {
        self.store = store
        self.background = background
        self.logger = logger
        self.beforeBuild = beforeBuild
    }

    /// A search's answer: a page of tracks, best first.
    public struct Answer: Sendable {
        public let tracks: [Track]
        public let total: Int
        public var approximate = false
        public var suggestion: String?
        /// Whether the in-memory index answered (false: the database did, during a build).
        public var fromIndex = true
    }

    /// Starts building the index (at server start), unless it is there or being built.
    public func prepare() async {
        do {
            try await refresh()
        } catch {
            logger.error("search index not started", metadata: ["error": "\(error)"])
        }
    }

    public func search(_ query: String, limit: Int, offset: Int) async throws -> Answer {
        try await refresh()
        if let index {
            let result = index.search(query, limit: limit, offset: offset)
            let tracks = try await store.tracks(ids: result.ids)
            return Answer(tracks: tracks, total: result.total, approximate: result.approximate, suggestion: result.suggestion)
        }
        let found = try await store.searchTracks(words: SearchText.tokens(query), limit: limit, offset: offset)
        return Answer(tracks: found.tracks, total: found.total, fromIndex: false)
    }

    /// Whether the index is built and at the library's generation (tests).
    public var isCurrent: Bool {
        get async throws {
            let generation = try await store.generation()
            return index?.generation == generation
        }
    }

    /// The index as it is now (tests).
    var current: LibrarySearchIndex? { index }

    /// Starts a build when the library moved past the index by a change this server is not
    /// applying in place.
    private func refresh() async throws {
        let generation = try await store.generation()
        if let index, index.generation >= generation { return }
        if saving > 0, index != nil { return }
        // One build at a time: one that ends behind the library is followed by another.
        if building != nil { return }
        startBuild(generation)
    }

    /// Waits until the index is at the library's generation (tests, and callers that want the
    /// index's ranking rather than the database's answer).
    public func waitUntilCurrent() async throws {
        while true {
            try await refresh()
            if try await isCurrent { return }
            if let building {
                _ = try await building.task.value  // a failed build is the caller's error
                await install(building.task)
            } else {
                // A scan's change on its way (`applied`).
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    private func startBuild(_ generation: Int) {
        let store = self.store
        let beforeBuild = self.beforeBuild
        // Off the actor: searches go on (from the database) while the words are indexed.
        let task = Task.detached(priority: .utility) {
            await beforeBuild()
            let read = try await store.searchRows()
            return LibrarySearchIndex(entries: read.rows, generation: read.generation)
        }
        building = (generation, task)
        builds += 1
        background.start("search index build") {
            await withTaskCancellationHandler {
                await self.install(task)
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// Swaps in a finished index unless a newer one is already there. A failed build is
    /// logged (searches keep the previous index, or the database, and the next one tries again).
    private func install(_ task: Task<LibrarySearchIndex, any Error>) async {
        let fresh: LibrarySearchIndex
        do {
            fresh = try await task.value
        } catch {
            logger.error("search index not built: searches answer from the previous one or the database", metadata: ["error": "\(error)"])
            if building?.task == task { building = nil }
            return
        }
        if building?.task == task { building = nil }
        guard fresh.generation >= (index?.generation ?? -1) else { return }
        index = fresh
        applyWaiting()
    }

    // MARK: LibraryChangeObserver

    public func willApply() async { saving += 1 }

    public func applied(_ change: LibraryStore.AppliedChanges?) async {
        saving = max(0, saving - 1)
        guard let change else { return }
        waiting[change.generation - 1] = change
        applyWaiting()
    }

    /// Applies the saved changes that follow the index's generation, in order.
    private func applyWaiting() {
        // Taken out while it changes, so that its arrays are changed in place, not copied.
        guard var index = self.index.take() else {
            // Kept for the build under way, which may end behind them.
            if building == nil { waiting = [:] }
            return
        }
        while let change = waiting.removeValue(forKey: index.generation) {
            let added = change.stored.map { t in
                LibrarySearchIndex.Entry(
                    id: t.id, title: t.title, artist: t.artist, album: t.album, albumArtist: t.albumArtist, composer: t.composer, genre: t.genre, year: t.year,
                    order: CatalogKeys.trackByArtist(artist: t.artist, album: t.album, disc: t.discNumber, track: t.trackNumber, title: t.title, id: t.id))
            }
            index.apply(removing: change.removed, adding: added, generation: change.generation)
        }
        // Changes the index is already past (it was built after them) are done with.
        waiting = waiting.filter { $0.key > index.generation }
        self.index = index
    }
}
