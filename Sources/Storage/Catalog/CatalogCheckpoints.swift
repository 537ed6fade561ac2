import Foundation
import SQLKit
import Synchronization

/// Where a deep offset of a whole-library order starts, without walking the order's index up
/// to it: every `spacing`-th key of the order, read once per library generation.
///
/// A page at `offset` n is otherwise found by stepping over n keys of the index (SQLite and
/// PostgreSQL have no faster way): at 100,000 tracks, a page 99,950 deep cost 3.9 times the
/// first, and a Subsonic client syncing the library by `songOffset` reads every depth in turn.
/// With checkpoints the page starts at the key before it and steps over fewer than `spacing`.
///
/// Only the unfiltered orders whose keys change with the library's generation are kept (a
/// play changes the most and recently played orders without a new generation, and a filter's
/// pages are as short as the filter). Keys are unique (each ends with its row's id), so a
/// checkpoint is an exact position. A build reads the whole index once; while the library
/// changes (a scan bumps the generation with each batch) an order is built again at most every
/// `rebuildInterval`, and until then a deep page walks the index as before: never a stale
/// position.
public final class CatalogCheckpoints: Sendable {
    let spacing: Int
    let rebuildInterval: Duration

    struct Order: Hashable { let table: String, column: String }
    struct Built {
        let generation: Int
        /// The key at positions spacing, 2 × spacing, … (0-based).
        let keys: [String]
    }
    struct State {
        var built: [Order: Built] = [:]
        /// When an order was last built, and how long that took.
        var lastBuild: [Order: (at: ContinuousClock.Instant, took: Duration)] = [:]
    }
    private let state = Mutex(State())

    public init(spacing: Int = 500, rebuildInterval: Duration = .seconds(5)) {
        self.spacing = max(2, spacing)
        self.rebuildInterval = rebuildInterval
    }

    /// Where the page at `offset` starts: a key at or before it and how many rows to step over
    /// from there; nil when the offset is shallow or the order's checkpoints are out of date
    /// and were built too recently to build again.
    func start(table: String, column: String, offset: Int, on db: any SQLDatabase, now: ContinuousClock.Instant = .now) async throws -> Start? {
        guard offset >= spacing else { return nil }
        let order = Order(table: table, column: column)
        let generation = try await Self.generation(on: db)
        let current: Built? = state.withLock { state in
            if let built = state.built[order], built.generation == generation { return built }
            return nil
        }
        let built: Built
        if let current {
            built = current
        } else {
            // Not again within the interval, nor within 20 times the last build's own time (a
            // million tracks take about a second of CPU): rebuilding while a scan runs costs
            // at most a twentieth of a core.
            let mayBuild = state.withLock { state in
                if let last = state.lastBuild[order], now - last.at < max(rebuildInterval, last.took * 20) { return false }
                state.lastBuild[order] = (now, .zero)
                return true
            }
            guard mayBuild else { return nil }
            let began = ContinuousClock.now
            built = Built(generation: generation, keys: try await Self.keys(table: table, column: column, spacing: spacing, on: db))
            let took = ContinuousClock.now - began
            state.withLock {
                $0.built[order] = built
                $0.lastBuild[order] = (now, took)
            }
        }
        let index = min(offset / spacing, built.keys.count)
        guard index > 0 else { return nil }
        return Start(key: built.keys[index - 1], skip: offset - index * spacing, generation: generation)
    }

    /// A page's start: read from `key` on, stepping over `skip` rows; right while the library
    /// is still at `generation` (the page checks it again after reading).
    struct Start {
        let key: String
        let skip: Int
        let generation: Int
    }

    /// The keys built for an order, if any (for tests).
    func keys(of table: String, column: String) -> [String]? {
        state.withLock { $0.built[Order(table: table, column: column)]?.keys }
    }

    static func generation(on db: any SQLDatabase) async throws -> Int {
        try await db.raw("SELECT generation FROM library_generation WHERE id = 1").first()?.decode(column: "generation", as: Int.self) ?? 0
    }

    /// Every `spacing`-th key of an order, by its rank over the order's index.
    static func keys(table: String, column: String, spacing: Int, on db: any SQLDatabase) async throws -> [String] {
        let query =
            "SELECT " + column + " AS k FROM (SELECT " + column + ", ROW_NUMBER() OVER (ORDER BY " + column + ") AS r FROM " + table
            + ") AS ranked WHERE r > 1 AND (r - 1) % " + String(spacing) + " = 0 ORDER BY r"
        return try await db.raw(SQLQueryString(query)).all().map { try $0.decode(column: "k", as: String.self) }
    }
}
