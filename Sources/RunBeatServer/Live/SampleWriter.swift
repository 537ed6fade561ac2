import Foundation
import Logging
import RunBeat
import Synchronization

/// Writes live samples in batches: every few hundred milliseconds, the samples of every
/// running workout on this server in one statement, and how long each has run in one more (a
/// gym of a thousand runners is a thousand rows a second, not a thousand transactions). A cue
/// never waits for it: the session judges a sample as it arrives, and the page keeps each
/// sample until the server says it is stored. Samples are handed over without a hop (a lock,
/// not an actor): the hub does it for every sample.
final class SampleWriter: Sendable {
    let store: RunBeatStore
    let logger: Logger

    private struct Pending {
        var samples: [(workout: WorkoutID, sample: RunBeatStore.Sample)] = []
        var seconds: [WorkoutID: Double] = [:]
    }

    private let pending = Mutex(Pending())
    /// One flush at a time (the periodic one and a workout's last one).
    private let flushing = FlushTurn()

    init(store: RunBeatStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    func add(_ samples: [RunBeatStore.Sample], of workout: WorkoutID) {
        pending.withLock { $0.samples += samples.map { (workout, $0) } }
    }

    /// Records how long a workout has run, written with the next batch.
    func ran(_ workout: WorkoutID, seconds: Double) { pending.withLock { $0.seconds[workout] = seconds } }

    /// Writes what is pending; returns, per workout, the seqs now stored. A failed write is
    /// kept for the next flush (the database may be restarting).
    func flush() async -> [WorkoutID: [Int64]] {
        await flushing.run {
            let batch = pending.withLock { p -> Pending in
                let taken = p
                p = Pending()
                return taken
            }
            guard !batch.samples.isEmpty || !batch.seconds.isEmpty else { return [:] }
            do {
                try await store.insert(batch.samples)
                try await store.updateSeconds(batch.seconds)
            } catch {
                logger.warning("runbeat samples not stored yet, kept for the next write", metadata: ["error": "\(error)", "samples": "\(batch.samples.count)"])
                pending.withLock { p in
                    p.samples = batch.samples + p.samples
                    for (workout, length) in batch.seconds where p.seconds[workout] == nil { p.seconds[workout] = length }
                }
                return [:]
            }
            var stored: [WorkoutID: [Int64]] = [:]
            for row in batch.samples { stored[row.workout, default: []].append(row.sample.seq) }
            return stored
        }
    }
}

/// Runs one piece of async work at a time, in the order asked.
actor FlushTurn {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ work: @Sendable () async -> T) async -> T {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        }
        busy = true
        let result = await work()
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
        return result
    }
}
