import Foundation
import SQLKit
import Synchronization

/// Where a deep offset of a whole-library order starts, without walking the order's index up
/// to it: every `spacing`-th key of the order, read once per version of what the order holds.
///
/// A page at `offset` n is otherwise found by stepping over n keys of the index (SQLite and
/// PostgreSQL have no faster way): at 100,000 tracks, a page 99,950 deep cost 3.9 times the
/// first, and a Subsonic client syncing the library by `songOffset` reads every depth in turn.
/// With checkpoints the page starts at the key before it and steps over fewer than `spacing`.
///
/// Kept for the orders of a whole table (a filter's pages are as short as the filter): their
/// keys change with the library's generation, and the most and recently played orders with the
/// plays' generation too. Keys are unique (each ends with its row's id), so a checkpoint is an
/// exact position. A build reads the order's index once; while the library changes (a scan
/// bumps the generation with each batch) an order is built again at most every
/// `rebuildInterval`, and until then a deep page walks the index as before: never a stale
/// position.
public final class CatalogCheckpoints: Sendable {
    let spacing: Int
    let rebuildInterval: Duration

    /// An order checkpoints are kept for: a table's key column, the condition every row of the
    /// order meets (the played albums: their key is set), and whether plays change it.
    public struct Order: Hashable, Sendable {
        let table: String
        let column: String
        let condition: String?
        let followsPlays: Bool
        init(table: String, column: String, condition: String? = nil, followsPlays: Bool = false) {
            self.table = table
            self.column = column
            self.condition = condition
            self.followsPlays = followsPlays
        }
    }
    /// What an order's rows were when its checkpoints were read.
    struct Version: Equatable {
        let generation: Int
        /// The plays' generation, for an order plays change (else 0).
        let plays: Int
    }
    struct Built {
        let version: Version
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
    func start(_ order: Order, offset: Int, on db: any SQLDatabase, now: ContinuousClock.Instant = .now) async throws -> Start? {
        guard offset >= spacing else { return nil }
        let version = try await Self.version(of: order, on: db)
        let current: Built? = state.withLock { state in
            if let built = state.built[order], built.version == version { return built }
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
            built = Built(version: version, keys: try await Self.keys(of: order, spacing: spacing, on: db))
            let took = ContinuousClock.now - began
            state.withLock {
                $0.built[order] = built
                $0.lastBuild[order] = (now, took)
            }
        }
        let index = min(offset / spacing, built.keys.count)
        guard index > 0 else { return nil }
        return Start(key: built.keys[index - 1], skip: offset - index * spacing, version: version)
    }

    /// A page's start: read from `key` on, stepping over `skip` rows; right while the order is
    /// still at `version` (the page checks it again after reading).
    struct Start {
        let key: String
        let skip: Int
        let version: Version
    }

    /// The keys built for an order, if any (for tests).
    func keys(of order: Order) -> [String]? {
        state.withLock { $0.built[order]?.keys }
    }

    static func version(of order: Order, on db: any SQLDatabase) async throws -> Version {
        let row = try await db.raw("SELECT generation, plays_generation FROM library_generation WHERE id = 1").first()
        return Version(
            generation: try row?.decode(column: "generation", as: Int.self) ?? 0,
            plays: order.followsPlays ? try row?.decode(column: "plays_generation", as: Int.self) ?? 0 : 0)
    }

    /// Every `spacing`-th key of an order, by its rank over the order's index.
    static func keys(of order: Order, spacing: Int, on db: any SQLDatabase) async throws -> [String] {
        let condition = order.condition.map { " WHERE " + $0 } ?? ""
        let query =
            "SELECT " + order.column + " AS k FROM (SELECT " + order.column + ", ROW_NUMBER() OVER (ORDER BY " + order.column + ") AS r FROM "
            + order.table + condition + ") AS ranked WHERE r > 1 AND (r - 1) % " + String(spacing) + " = 0 ORDER BY r"
        return try await db.raw(SQLQueryString(query)).all().map { try $0.decode(column: "k", as: String.self) }
    }
}
