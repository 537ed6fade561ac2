import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOCore
import Synchronization

/// RunBeat in a gym: `runners` runners, each with a workout running and its own WebSocket,
/// streaming a heart-rate sample a second, against a running `juke serve`. The runners' cue
/// rules are set so that a cue is due every five seconds each (the heart moves between zones 2
/// and 4 every 5 s, with no smoothing, dwell, grace or dead band and the shortest cooldown):
/// about runners/5 cues a second. Measured at the client: from a sample's send to the cue it
/// triggered (the cue carries the sample's time), and, as this run's floor, from a ping's send
/// to its pong on the same connections under the same load (the path without the engine).
struct RunBeatLoad {
    let port: Int
    let database: String
    let runners: Int
    let duration: Int
    let logger: Logger

    /// Seconds of ramp-up left out of the headline figure.
    static let warmUp = 5

    static let rules =
        #"{"smoothing_seconds":1,"trim_fraction":0,"dead_band":0,"dwell_seconds":0,"cooldown_seconds":5,"phase_grace_seconds":0,"minimum_gap_seconds":1,"stale_sample_seconds":10,"silent_strap_seconds":10,"reminder_seconds":0}"#

    final class Tally: Sendable {
        let cues = Mutex<[Double]>([])
        /// Each cue's latency by the second of the sample that triggered it (JUKE_LOAD_BY_SECOND=1 prints them).
        let bySecond = Mutex<[Int: [Double]]>([:])
        let pongs = Mutex<[Double]>([])
        let unmatched = Atomic<Int>(0)
        let opened = Atomic<Int>(0)
    }

    func run() async throws {
        let accounts = try await TriviaLoad(port: port, database: database, players: runners - 1, guessRate: 1, logger: logger).seed()
        let pool = HTTPPool(port: port)
        let workouts = Mutex<[Int: String]>([:])
        try await pool.each(accounts.count, concurrency: 16) { i, send in
            let rules = try await send("PUT", "/api/v1/runbeat/profile/rules", accounts[i].token, Self.rules)
            guard rules.status == 200 else { throw LoadError.refused("rules \(i): \(rules.status)") }
            let started = try await send("POST", "/api/v1/runbeat/workouts", accounts[i].token, #"{"plan_id":"free"}"#)
            guard started.status == 201, let id = TriviaLoad.field("id", in: started.body) else { throw LoadError.refused("start \(i): \(started.status)") }
            workouts.withLock { $0[i] = id }
        }
        say("  \(accounts.count) runners with a workout running")
        let tally = Tally()
        let begin = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (i, account) in accounts.enumerated() {
                guard let id = workouts.withLock({ $0[i] }) else { continue }
                group.addTask {
                    // Spread the runners' seconds over the second, as a gym's straps are.
                    try await Task.sleep(for: .milliseconds(i * 1000 / max(1, accounts.count)))
                    try await runner(id: id, token: account.token, tally: tally)
                }
            }
            try await group.waitForAll()
        }
        let elapsed = seconds(ContinuousClock.now - begin)
        let all = tally.cues.withLock { $0 }.sorted()
        // The steady state: from the fifth second on (the first seconds are every connection's
        // first sample, the first batch written, a cold server), as a gym's is.
        let cues = tally.bySecond.withLock { $0 }.filter { $0.key >= Self.warmUp }.flatMap(\.value).sorted()
        let pongs = tally.pongs.withLock { $0 }.sorted()
        say(
            String(
                format: "  %d connections; %d samples a second for %d s; %d cues (%.0f a second), %d pongs", tally.opened.load(ordering: .relaxed),
                runners, duration, all.count, Double(all.count) / elapsed, pongs.count))
        say(
            String(
                format: "  sample to cue, from second %d on:  p50 %.1f ms  p95 %.1f ms  p99 %.1f ms  max %.1f ms", Self.warmUp, percentile(cues, 0.5),
                percentile(cues, 0.95), percentile(cues, 0.99), cues.last ?? .nan))
        say(String(format: "  sample to cue, all (with the first seconds):  p99 %.1f ms  max %.1f ms", percentile(all, 0.99), all.last ?? .nan))
        say(
            String(
                format: "  ping to pong:   p50 %.1f ms  p95 %.1f ms  p99 %.1f ms  (the floor: the same connections without the engine)", percentile(pongs, 0.5),
                percentile(pongs, 0.95), percentile(pongs, 0.99)))
        say(
            String(
                format: "== RunBeat, %d runners: sample-to-cue p99 %.1f ms (target <= 50 ms); %.2fx the ping floor's p99", runners, percentile(cues, 0.99),
                percentile(cues, 0.99) / max(percentile(pongs, 0.99), 0.001)))
        if ProcessInfo.processInfo.environment["JUKE_LOAD_BY_SECOND"] == "1" {
            for (second, list) in tally.bySecond.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
                let sorted = list.sorted()
                say(
                    String(
                        format: "    second %3d: %4d cues, p50 %.1f ms, p99 %.1f ms", second, sorted.count, percentile(sorted, 0.5), percentile(sorted, 0.99)))
            }
        }
        if tally.unmatched.load(ordering: .relaxed) > 0 { say("  \(tally.unmatched.load(ordering: .relaxed)) cues matched no sample sent") }
    }

    func runner(id: String, token: String, tally: Tally) async throws {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port)/api/v1/runbeat/workouts/\(id)/live", configuration: .init(maxFrameSize: 1 << 16, additionalHeaders: headers),
            logger: logger
        ) { inbound, outbound, _ in
            tally.opened.add(1, ordering: .relaxed)
            let sent = SendTimes()
            let duration = self.duration
            let sender = Task {
                let start = ContinuousClock.now
                for second in 0..<duration {
                    try await Task.sleep(until: start + .seconds(second), clock: .continuous)
                    // Zone 2 (140) and zone 4 (170) in turns of five seconds: a cue every five.
                    let bpm = (second / 5) % 2 == 0 ? 140 : 170
                    sent.samples.withLock { $0[second] = ContinuousClock.now }
                    try await outbound.write(.text(#"{"type":"samples","t":\#(second),"samples":[{"seq":\#(second),"t":\#(second),"bpm":\#(bpm)}]}"#))
                    if second % 5 == 2 {
                        sent.pings.withLock { $0[second] = ContinuousClock.now }
                        try await outbound.write(.text(#"{"type":"ping","t":\#(second)}"#))
                    }
                }
                try await Task.sleep(for: .seconds(1))
                try await outbound.write(.text(#"{"type":"end","t":\#(duration)}"#))
            }
            for try await message in inbound.messages(maxSize: 1 << 16) {
                let now = ContinuousClock.now
                guard case .text(let text) = message else { continue }
                if text.contains(#""type":"cue""#), text.contains(#""kind":"zone""#), let t = Self.number("t", in: text) {
                    if let at = sent.samples.withLock({ $0[Int(t)] }) {
                        tally.cues.withLock { $0.append(ms(now - at)) }
                        tally.bySecond.withLock { $0[Int(t), default: []].append(ms(now - at)) }
                    } else {
                        tally.unmatched.add(1, ordering: .relaxed)
                    }
                } else if text.contains(#""type":"pong""#), let t = Self.number("t", in: text), let at = sent.pings.withLock({ $0[Int(t)] }) {
                    tally.pongs.withLock { $0.append(ms(now - at)) }
                } else if text.contains(#""type":"finished""#) {
                    break
                }
            }
            _ = try await sender.value
            try await outbound.close(.normalClosure, reason: nil)
        }
    }

    /// When each sample and ping went out, by its second.
    final class SendTimes: Sendable {
        let samples = Mutex<[Int: ContinuousClock.Instant]>([:])
        let pings = Mutex<[Int: ContinuousClock.Instant]>([:])
    }

    static func number(_ key: String, in text: String) -> Double? {
        guard let range = text.range(of: "\"\(key)\":") else { return nil }
        let rest = text[range.upperBound...]
        let digits = rest.prefix { $0.isNumber || $0 == "." || $0 == "-" }
        return Double(digits)
    }
}
