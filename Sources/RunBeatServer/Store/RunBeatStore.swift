import Foundation
import JukeCore
import RunBeat
import SQLKit
import Storage

/// RunBeat's rows: settings, plans, workouts, samples, classes.
public struct RunBeatStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    // MARK: Settings

    public func settings(of user: UserID) async throws -> RunnerSettings? {
        try await database.withConnection { db in
            try await db.raw("SELECT data FROM runbeat_settings WHERE user_id = \(bind: user.description)").first()
                .map { try JSONColumn.decode(RunnerSettings.self, try $0.decode(column: "data", as: String.self)) }
        }
    }

    public func save(_ settings: RunnerSettings, of user: UserID, now: Date) async throws {
        let data = try JSONColumn.encode(settings)
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO runbeat_settings (user_id, data, updated_at) VALUES (\(bind: user.description), \(bind: data), \(bind: Self.millis(now)))
                ON CONFLICT (user_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at
                """
            ).run()
        }
    }

    // MARK: Plans

    public struct StoredPlan: Sendable {
        public var id: PlanID
        public var owner: UserID
        public var plan: WorkoutPlan
    }

    public func plans(of user: UserID) async throws -> [StoredPlan] {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM runbeat_plans WHERE user_id = \(bind: user.description) ORDER BY created_at, name").all().map(Self.plan)
        }
    }

    public func plan(_ id: PlanID) async throws -> StoredPlan? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM runbeat_plans WHERE id = \(bind: id.description)").first().map(Self.plan)
        }
    }

    public func add(_ plan: WorkoutPlan, id: PlanID, owner: UserID, now: Date) async throws {
        let data = try JSONColumn.encode(plan)
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO runbeat_plans (id, user_id, name, data, created_at)
                VALUES (\(bind: id.description), \(bind: owner.description), \(bind: plan.name), \(bind: data), \(bind: Self.millis(now)))
                """
            ).run()
        }
    }

    public func countPlans(of user: UserID) async throws -> Int {
        try await database.withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM runbeat_plans WHERE user_id = \(bind: user.description)").first()?.decode(column: "n", as: Int.self)
                ?? 0
        }
    }

    public func deletePlan(_ id: PlanID) async throws {
        try await database.withConnection { db in try await db.raw("DELETE FROM runbeat_plans WHERE id = \(bind: id.description)").run() }
    }

    static func plan(_ row: any SQLRow) throws -> StoredPlan {
        StoredPlan(
            id: try decodeID(row, "id"), owner: try decodeID(row, "user_id"),
            plan: try JSONColumn.decode(WorkoutPlan.self, try row.decode(column: "data", as: String.self)))
    }

    // MARK: Workouts

    public enum Status: String, Sendable { case running, completed, ended }
    public enum Source: String, Sendable { case live, `import` }

    public struct StoredWorkout: Sendable {
        public var id: WorkoutID
        public var owner: UserID
        public var name: String
        public var mode: TrainingMode
        public var status: Status
        public var source: Source
        public var startedAt: Date
        public var seconds: Double
        public var setup: WorkoutSetup
        public var summary: WorkoutSummary?
        public var classCode: String?
        public var damage: String?
        public var samples = 0
        /// The SHA-256 (hex) of the file an imported workout came from.
        public var fileSHA256: String?
        /// When it was deleted, while it can still be restored.
        public var deletedAt: Date?
    }

    public func add(_ workout: StoredWorkout, now: Date) async throws {
        let setup = try JSONColumn.encode(workout.setup)
        let summary = try workout.summary.map { try JSONColumn.encode($0) }
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO runbeat_workouts (id, user_id, name, mode, status, source, started_at, seconds, setup, summary, class_code, damage,
                                              file_sha256, created_at)
                VALUES (\(bind: workout.id.description), \(bind: workout.owner.description), \(bind: workout.name), \(bind: workout.mode.rawValue),
                        \(bind: workout.status.rawValue), \(bind: workout.source.rawValue), \(bind: Self.millis(workout.startedAt)),
                        \(bind: workout.seconds), \(bind: setup), \(bind: summary), \(bind: workout.classCode), \(bind: workout.damage),
                        \(bind: workout.fileSHA256), \(bind: Self.millis(now)))
                """
            ).run()
        }
    }

    /// Marks a workout finished with its summary, unless it already is; true when this call did.
    public func finish(_ id: WorkoutID, status: Status, seconds: Double, summary: WorkoutSummary) async throws -> Bool {
        let data = try JSONColumn.encode(summary)
        return try await database.withConnection { db in
            let rows = try await db.raw(
                """
                UPDATE runbeat_workouts SET status = \(bind: status.rawValue), seconds = \(bind: seconds), summary = \(bind: data)
                WHERE id = \(bind: id.description) AND status = 'running' RETURNING id
                """
            ).all()
            return !rows.isEmpty
        }
    }

    public func updateSeconds(_ id: WorkoutID, seconds: Double) async throws {
        try await database.withConnection { db in
            try await db.raw(
                "UPDATE runbeat_workouts SET seconds = \(bind: seconds) WHERE id = \(bind: id.description) AND status = 'running' AND seconds < \(bind: seconds)"
            ).run()
        }
    }

    /// How long several workouts have run, in one statement (each only forward, and only
    /// while running).
    public func updateSeconds(_ seconds: [WorkoutID: Double]) async throws {
        guard !seconds.isEmpty else { return }
        let rows = Array(seconds)
        try await database.withConnection { db in
            for chunk in Self.chunks(rows) {
                var query = SQLQueryString("UPDATE runbeat_workouts SET seconds = v.column2 FROM (VALUES ")
                for (i, row) in chunk.enumerated() {
                    if i > 0 { query.appendLiteral(", ") }
                    query.appendLiteral("(")
                    query.appendInterpolation(bind: row.key.description)
                    query.appendLiteral(", CAST(")
                    query.appendInterpolation(bind: row.value)
                    query.appendLiteral(" AS DOUBLE PRECISION))")
                }
                query.appendLiteral(
                    ") AS v WHERE runbeat_workouts.id = v.column1 AND runbeat_workouts.status = 'running' AND runbeat_workouts.seconds < v.column2")
                try await db.raw(query).run()
            }
        }
    }

    /// A workout's columns and how many samples it holds.
    static let withSampleCount = "SELECT w.*, (SELECT COUNT(*) FROM runbeat_samples s WHERE s.workout_id = w.id) AS samples FROM runbeat_workouts w"

    public func workout(_ id: WorkoutID) async throws -> StoredWorkout? {
        try await database.withConnection { db in
            try await db.raw(
                "\(unsafeRaw: Self.withSampleCount) WHERE w.id = \(bind: id.description)"
            ).first().map(Self.workout)
        }
    }

    public func running(of user: UserID) async throws -> StoredWorkout? {
        try await database.withConnection { db in
            try await db.raw(
                """
                \(unsafeRaw: Self.withSampleCount)
                WHERE w.user_id = \(bind: user.description) AND w.status = 'running' ORDER BY w.started_at DESC
                """
            ).first().map(Self.workout)
        }
    }

    public func workouts(of user: UserID, limit: Int, offset: Int) async throws -> (workouts: [StoredWorkout], total: Int) {
        try await database.withConnection { db in
            let rows = try await db.raw(
                """
                \(unsafeRaw: Self.withSampleCount)
                WHERE w.user_id = \(bind: user.description) AND w.deleted_at IS NULL
                ORDER BY w.started_at DESC, w.id LIMIT \(bind: limit) OFFSET \(bind: offset)
                """
            ).all()
            let total =
                try await db.raw("SELECT COUNT(*) AS n FROM runbeat_workouts WHERE user_id = \(bind: user.description) AND deleted_at IS NULL").first()?
                .decode(column: "n", as: Int.self) ?? 0
            return (try rows.map(Self.workout), total)
        }
    }

    /// The runner's workout imported from a file with these bytes (its SHA-256), if one is
    /// in their history.
    public func imported(by user: UserID, fileSHA256: String) async throws -> StoredWorkout? {
        try await database.withConnection { db in
            try await db.raw(
                """
                \(unsafeRaw: Self.withSampleCount)
                WHERE w.user_id = \(bind: user.description) AND w.file_sha256 = \(bind: fileSHA256) AND w.deleted_at IS NULL
                ORDER BY w.created_at LIMIT 1
                """
            ).first().map(Self.workout)
        }
    }

    /// Deletes a workout so that it can still be restored: hidden from the history at once.
    public func markDeleted(_ id: WorkoutID, at now: Date) async throws {
        try await database.withConnection { db in
            try await db.raw(
                "UPDATE runbeat_workouts SET deleted_at = \(bind: Self.millis(now)) WHERE id = \(bind: id.description) AND deleted_at IS NULL"
            ).run()
        }
    }

    /// Brings back a workout deleted at `since` or later; false when there is none (never
    /// deleted, deleted earlier, or already removed for good).
    public func restore(_ id: WorkoutID, deletedSince since: Date) async throws -> Bool {
        try await database.withConnection { db in
            try await !db.raw(
                """
                UPDATE runbeat_workouts SET deleted_at = NULL
                WHERE id = \(bind: id.description) AND deleted_at IS NOT NULL AND deleted_at >= \(bind: Self.millis(since)) RETURNING id
                """
            ).all().isEmpty
        }
    }

    /// Removes for good every workout deleted before `before`, with its samples.
    public func purgeDeleted(before: Date) async throws {
        let cutoff = Self.millis(before)
        try await database.transaction { db in
            try await db.raw(
                """
                DELETE FROM runbeat_samples WHERE workout_id IN
                (SELECT id FROM runbeat_workouts WHERE deleted_at IS NOT NULL AND deleted_at < \(bind: cutoff))
                """
            ).run()
            try await db.raw("DELETE FROM runbeat_workouts WHERE deleted_at IS NOT NULL AND deleted_at < \(bind: cutoff)").run()
        }
    }

    public func deleteWorkout(_ id: WorkoutID) async throws {
        try await database.transaction { db in
            try await db.raw("DELETE FROM runbeat_samples WHERE workout_id = \(bind: id.description)").run()
            try await db.raw("DELETE FROM runbeat_workouts WHERE id = \(bind: id.description)").run()
        }
    }

    static func workout(_ row: any SQLRow) throws -> StoredWorkout {
        StoredWorkout(
            id: try decodeID(row, "id"), owner: try decodeID(row, "user_id"), name: try row.decode(column: "name", as: String.self),
            mode: TrainingMode(rawValue: try row.decode(column: "mode", as: String.self)) ?? .free,
            status: Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .ended,
            source: Source(rawValue: try row.decode(column: "source", as: String.self)) ?? .live,
            startedAt: Date(timeIntervalSince1970: Double(try row.decode(column: "started_at", as: Int64.self)) / 1000),
            seconds: try row.decode(column: "seconds", as: Double.self),
            setup: try JSONColumn.decode(WorkoutSetup.self, try row.decode(column: "setup", as: String.self)),
            summary: try row.decode(column: "summary", as: String?.self).map { try JSONColumn.decode(WorkoutSummary.self, $0) },
            classCode: try row.decode(column: "class_code", as: String?.self), damage: try row.decode(column: "damage", as: String?.self),
            samples: (try? row.decode(column: "samples", as: Int.self)) ?? 0, fileSHA256: try row.decode(column: "file_sha256", as: String?.self),
            deletedAt: try row.decode(column: "deleted_at", as: Int64?.self).map { Date(timeIntervalSince1970: Double($0) / 1000) })
    }

    // MARK: Samples

    public struct Sample: Sendable, Equatable {
        public var seq: Int64
        public var time: Double
        public var bpm: Int

        public init(seq: Int64, time: Double, bpm: Int) {
            self.seq = seq
            self.time = time
            self.bpm = bpm
        }
    }

    /// Stores samples of several workouts in one statement; one already stored (the same
    /// workout and seq) is skipped.
    public func insert(_ samples: [(workout: WorkoutID, sample: Sample)]) async throws {
        guard !samples.isEmpty else { return }
        try await database.withConnection { db in
            for chunk in Self.chunks(samples) {
                var query = SQLQueryString("INSERT INTO runbeat_samples (workout_id, seq, t, bpm) VALUES ")
                for (i, row) in chunk.enumerated() {
                    if i > 0 { query.appendLiteral(", ") }
                    query.appendLiteral("(")
                    query.appendInterpolation(bind: row.workout.description)
                    query.appendLiteral(", ")
                    query.appendInterpolation(bind: row.sample.seq)
                    query.appendLiteral(", ")
                    query.appendInterpolation(bind: row.sample.time)
                    query.appendLiteral(", ")
                    query.appendInterpolation(bind: row.sample.bpm)
                    query.appendLiteral(")")
                }
                query.appendLiteral(" ON CONFLICT (workout_id, seq) DO NOTHING")
                try await db.raw(query).run()
            }
        }
    }

    /// A workout's samples in time order.
    public func samples(of workout: WorkoutID) async throws -> [Sample] {
        try await database.withConnection { db in
            try await db.raw("SELECT seq, t, bpm FROM runbeat_samples WHERE workout_id = \(bind: workout.description) ORDER BY t, seq").all().map {
                Sample(
                    seq: try $0.decode(column: "seq", as: Int64.self), time: try $0.decode(column: "t", as: Double.self),
                    bpm: try $0.decode(column: "bpm", as: Int.self))
            }
        }
    }

    /// The highest seq with every seq below it stored (-1 when seq 0 is missing).
    public func contiguousSeq(of workout: WorkoutID) async throws -> Int64 {
        let seqs = try await database.withConnection { db in
            try await db.raw("SELECT seq FROM runbeat_samples WHERE workout_id = \(bind: workout.description) ORDER BY seq").all().map {
                try $0.decode(column: "seq", as: Int64.self)
            }
        }
        var expected: Int64 = 0
        for seq in seqs {
            guard seq == expected else { break }
            expected += 1
        }
        return expected - 1
    }

    // MARK: Classes

    public struct StoredClass: Sendable {
        public var code: String
        public var coach: UserID
        public var name: String
        public var createdAt: Date
    }

    public func add(_ stored: StoredClass) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO runbeat_classes (code, coach_id, name, created_at)
                VALUES (\(bind: stored.code), \(bind: stored.coach.description), \(bind: stored.name), \(bind: Self.millis(stored.createdAt)))
                """
            ).run()
        }
    }

    public func `class`(_ code: String) async throws -> StoredClass? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM runbeat_classes WHERE code = \(bind: code)").first().map {
                StoredClass(
                    code: try $0.decode(column: "code", as: String.self), coach: try decodeID($0, "coach_id"),
                    name: try $0.decode(column: "name", as: String.self),
                    createdAt: Date(timeIntervalSince1970: Double(try $0.decode(column: "created_at", as: Int64.self)) / 1000))
            }
        }
    }

    /// Workouts running in a class, with their runners' names.
    public func running(inClass code: String) async throws -> [(workout: StoredWorkout, runner: String)] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT w.*, u.display_name AS runner_name FROM runbeat_workouts w JOIN users u ON u.id = w.user_id
                WHERE w.class_code = \(bind: code) AND w.status = 'running' ORDER BY w.started_at
                """
            ).all().map { (try Self.workout($0), try $0.decode(column: "runner_name", as: String.self)) }
        }
    }

    /// Rows in pieces for multi-row statements: 200 rows keep within both databases' bind limits.
    static func chunks<T>(_ rows: [T]) -> [ArraySlice<T>] {
        stride(from: 0, to: rows.count, by: 200).map { rows[$0..<min($0 + 200, rows.count)] }
    }

    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}
