import Foundation
import Logging
import RunBeat

/// Writes live samples in batches: every few hundred milliseconds, the samples of every
/// running workout on this server in one statement (a gym of a thousand runners is a thousand
/// rows a second, not a thousand transactions). A cue never waits for it: the session judges
/// a sample as it arrives, and the page keeps each sample until the server says it is stored.
actor SampleWriter {
    let store: RunBeatStore
    let logger: Logger
    private var pending: [(workout: WorkoutID, sample: RunBeatStore.Sample)] = []
    private var seconds: [WorkoutID: Double] = [:]
    private var flushing = false

    init(store: RunBeatStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    func add(_ samples: [RunBeatStore.Sample], of workout: WorkoutID) {
        pending += samples.map { (workout, $0) }
    }

    /// Records how long a workout has run, written with the next batch.
    func ran(_ workout: WorkoutID, seconds: Double) { self.seconds[workout] = seconds }

    /// Writes what is pending; returns, per workout, the seqs now stored. A failed write is
    /// kept for the next flush (the database may be restarting).
    func flush() async -> [WorkoutID: [Int64]] {
        guard !flushing, !pending.isEmpty || !seconds.isEmpty else { return [:] }
        flushing = true
        defer { flushing = false }
        let batch = pending
        let lengths = seconds
        pending.removeAll(keepingCapacity: true)
        seconds.removeAll()
        do {
            try await store.insert(batch)
            for (workout, seconds) in lengths { try await store.updateSeconds(workout, seconds: seconds) }
        } catch {
            logger.warning("runbeat samples not stored yet, kept for the next write", metadata: ["error": "\(error)", "samples": "\(batch.count)"])
            pending = batch + pending
            for (workout, length) in lengths where self.seconds[workout] == nil { self.seconds[workout] = length }
            return [:]
        }
        var stored: [WorkoutID: [Int64]] = [:]
        for row in batch { stored[row.workout, default: []].append(row.sample.seq) }
        return stored
    }

    /// Writes everything pending for `workout` now (before its summary is made).
    func flushNow() async -> [WorkoutID: [Int64]] {
        while flushing { await Task.yield() }
        return await flush()
    }
}
