import Crypto
import Foundation
import JukeCore
import Logging
import Storage
import Synchronization

/// TuneTrivia under load: one party game with thousands of players, each on its own
/// WebSocket, against a running `juke serve`. It seats the players (accounts and tokens are
/// written straight into the server's database: ten thousand password hashes would take
/// longer than the game), opens their connections and starts the game. Then, for each of
/// `reveals` rounds (three unless JUKE_BENCH_REVEALS says otherwise, at most the game's five),
/// every player guesses once at a steady rate over kept-alive connections, and the host
/// reveals. It prints each round's guess latencies (from the moment each was due, so a stall
/// is not hidden) and each reveal's delivery time, measured by the server (its
/// juke_tunetrivia_push_delay_seconds histogram) and seen by the clients. One reveal is one
/// sample on a machine whose speed varies from one moment to the next: several are reported
/// side by side, and the worst is the one compared with the floor.
///
/// For investigating: JUKE_LOAD_PAUSE=<seconds> waits (and says so on stderr) before each
/// reveal, to attach a profiler to it alone; JUKE_LOAD_TRACE=1 prints what player 0 receives;
/// JUKE_LOAD_SLOW=1 prints each answer over 20 ms (its index, milliseconds, and the
/// CLOCK_MONOTONIC time it came back, to line up with `perf record -k CLOCK_MONOTONIC`).
struct TriviaLoad {
    let port: Int
    let database: String
    let players: Int
    let guessRate: Int
    let logger: Logger

    struct Account: Sendable {
        let token: String
        let name: String
    }

    func run() async throws {
        let clock = ContinuousClock()
        let accounts = try await seed()
        let host = accounts[0]
        let seats = Array(accounts.dropFirst())
        let pool = HTTPPool(port: port)

        // The game: five songs from the demo library.
        let created = try await pool.call("POST", "/api/v1/tunetrivia/sessions", host.token, #"{"title":"Load test","mode":"party","num_songs":5}"#)
        guard created.status == 201, let session = Self.field("id", in: created.body), let code = Self.field("invite_code", in: created.body)
        else { throw LoadError.refused("create: \(created.status) \(String(decoding: created.body, as: UTF8.self))") }
        let base = "/api/v1/tunetrivia/sessions/\(session)"
        // The demo library may still be scanning on a fresh server: ask until five songs are in.
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let rounds = try await pool.call("POST", "\(base)/rounds/auto-generate", host.token, nil)
            guard rounds.status == 200 else { throw LoadError.refused("auto-generate: \(rounds.status)") }
            let total = ((try? JSONSerialization.jsonObject(with: rounds.body) as? [String: Any])?["rounds"] as? [Any])?.count ?? 0
            if total >= 5 { break }
            if ContinuousClock.now > deadline { throw LoadError.refused("the library has too few songs for a game") }
            try await Task.sleep(for: .seconds(1))
        }

        // Everyone joins by code.
        let joinTime = try await clock.measure {
            try await pool.each(seats.count, concurrency: 32) { i, send in
                let reply = try await send(
                    "POST", "/api/v1/tunetrivia/sessions/join", seats[i].token, #"{"invite_code":"\#(code)","display_name":"\#(seats[i].name)"}"#)
                guard reply.status == 200 else { throw LoadError.refused("join \(i): \(reply.status)") }
            }
        }
        say(String(format: "  %d players joined in %.1f s (%.0f joins/s)", seats.count, seconds(joinTime), Double(seats.count) / seconds(joinTime)))

        // Every player and the host on a WebSocket.
        let watch = try Watchers(count: seats.count)
        let connectTime = try await clock.measure {
            try await watch.connect(port: port, session: session, tokens: seats.map(\.token) + [host.token])
        }
        say(String(format: "  %d WebSockets open in %.1f s", watch.count, seconds(connectTime)))

        watch.mark(#""phase":"playing""#, from: .now)
        let start = try await pool.call("POST", "\(base)/start", host.token, nil)
        guard start.status == 200 else { throw LoadError.refused("start: \(start.status) \(String(decoding: start.body, as: UTF8.self))") }
        try await watch.waitUntilAll(see: #""phase":"playing""#, timeout: .seconds(60))

        let reveals = min(5, max(1, ProcessInfo.processInfo.environment["JUKE_BENCH_REVEALS"].flatMap { Int($0) } ?? 3))
        var worst: (server: String, clients: Double) = ("0", 0)
        var all: Histogram?
        // The host's browser keeps its connection, and so does whatever reads /metrics. A
        // connection that closes costs a server with ten thousand of them a few milliseconds
        // (its task is taken out of a list of ten thousand): not something to add to a reveal.
        try await LoopbackHTTP.connect(port: port).session { hostSend in
            try await LoopbackHTTP.connect(port: port).session { metricsSend in
                for round in 1...reveals {
                    if round > 1 {
                        watch.mark(#""current_round":\#(round)"#, from: .now)
                        let next = try await hostSend("POST", "\(base)/next-round", host.token, nil)
                        guard next.status == 200 else { throw LoadError.refused("next round: \(next.status)") }
                        try await watch.waitUntilAll(see: "round \(round)", timeout: .seconds(60))
                    }
                    let reveal = try await playRound(round, base: base, host: host, seats: seats, hostSend: hostSend, metricsSend: metricsSend, watch: watch)
                    if Double(reveal.server) ?? .infinity > Double(worst.server) ?? .infinity { worst.server = reveal.server }
                    worst.clients = max(worst.clients, reveal.clients)
                    all = all.map { Histogram.sum($0, reveal.histogram) } ?? reveal.histogram
                }
            }
        }
        // The target is a p99 of deliveries: here are all of this game's together.
        if let all, reveals > 1 {
            say("  all \(reveals) reveals' \(all.count) deliveries: at the server p50 <= \(all.percentile(0.50)) ms, p99 <= \(all.percentile(0.99)) ms")
        }
        // For the loopback floor that Scripts/bench-trivia.sh runs next, once this server is gone:
        // the message's size with its WebSocket header (4 bytes up to 64 KiB, 10 above).
        let frameBytes = watch.markedSize + (watch.markedSize < 65_536 ? 4 : 10)
        say(String(format: "floor-input: %d %d %@ %.1f", seats.count, frameBytes, worst.server, worst.clients))
    }

    /// One round: every player guesses once, at a steady rate, then the host reveals. Gives
    /// the reveal's p99: at the server (a histogram bucket's bound, as text) and at the clients,
    /// and the server's histogram of the reveal's deliveries.
    func playRound(
        _ round: Int, base: String, host: Account, seats: [Account], hostSend: LoopbackHTTP.Send, metricsSend: LoopbackHTTP.Send, watch: Watchers
    ) async throws -> (
        server: String, clients: Double, histogram: Histogram
    ) {
        say("  round \(round):")
        let answersBefore = try await answerHistogram(metricsSend)
        let guessing = try await guesses(base: base, seats: seats)
        say(guessing)
        let inside = Histogram.delta(try await answerHistogram(metricsSend), answersBefore)
        say(
            "  the same answers inside the server: "
                + [0.005, 0.01, 0.025, 0.05, 0.1].map { String(format: "%.1f%% <= %g ms", inside.share(atMost: $0) * 100, $0 * 1000) }
                .joined(separator: ", "))
        try await Task.sleep(for: .seconds(2))  // let the last pushes out

        // The reveal, timed at the server and at the clients.
        let before = try await histogram(metricsSend)
        if let pause = ProcessInfo.processInfo.environment["JUKE_LOAD_PAUSE"].flatMap(Double.init) {
            // For attaching a profiler to the reveal alone.
            FileHandle.standardError.write(Data("revealing in \(pause) s\n".utf8))
            try await Task.sleep(for: .seconds(pause))
        }
        let revealStart = ContinuousClock.now
        watch.mark(#""is_revealed":true"#, from: revealStart)
        let reveal = try await hostSend("POST", "\(base)/reveal", host.token, nil)
        let revealReply = ContinuousClock.now - revealStart
        guard reveal.status == 200 else { throw LoadError.refused("reveal: \(reveal.status)") }
        try await watch.waitUntilAll(see: #""is_revealed":true"#, timeout: .seconds(60))
        try await Task.sleep(for: .milliseconds(500))
        let after = try await histogram(metricsSend)
        let server = Histogram.delta(after, before)
        let seen = watch.latencies().sorted()
        say(
            String(
                format: "  reveal (%d bytes) to %d players: at the server p50 <= %@ ms, p99 <= %@ ms (%d deliveries; target p99 100 ms); "
                    + "the reveal request answered in %.1f ms; clients saw it: p50 %.1f ms, p99 %.1f ms, last %.1f ms",
                watch.markedSize, seats.count, server.percentile(0.50), server.percentile(0.99), server.count, ms(revealReply),
                percentile(seen, 0.50), percentile(seen, 0.99), seen.last ?? .nan))
        return (server.percentile(0.99), percentile(seen, 0.99), server)
    }

    /// Accounts written into the database: the host first.
    func seed() async throws -> [Account] {
        let location = try DatabaseLocation.parse(database, dataDirectory: ".")
        let db = try DatabaseFactory.open(location, logger: logger)
        let users = UserStore(database: db)
        let run = UUID().uuidString.prefix(8).lowercased()
        let accounts = (0...players).map { i in Account(token: "load-\(run)-\(i)-\(UUID().uuidString)", name: i == 0 ? "Host" : "Player \(i)") }
        let now = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<8 {
                group.addTask {
                    for i in stride(from: lane, to: accounts.count, by: 8) {
                        let user = User(id: UserID(), username: "load-\(run)-\(i)", email: nil, displayName: accounts[i].name, isAdmin: false, createdAt: now)
                        try await users.create(user, passwordHash: "-")  // no password: signs in by token only
                        let hash = Hex.string(SHA256.hash(data: Data(accounts[i].token.utf8)))
                        try await users.storeToken(hash: hash, user: user.id, createdAt: now, expiresAt: now + 86_400)
                    }
                }
            }
            try await group.waitForAll()
        }
        await db.shutdown()
        return accounts
    }

    /// Every player answers once, at `guessRate` a second, over 64 kept-alive connections
    /// (`PacedRequests`, on a thread of its own).
    func guesses(base: String, seats: [Account]) async throws -> String {
        let requests = seats.indices.map { i in
            let song = i % 3 == 0 ? "Dancing Queen" : "something else"
            let body = #"{"artist_guess":"ABBA","song_guess":"\#(song)"}"#
            return Array(
                ("POST \(base)/guess HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(seats[i].token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8)
        }
        let sender = PacedRequests(port: port, connections: 64)
        let interval = Duration.seconds(1) / guessRate
        let start = ContinuousClock.now
        let replies = try await withCheckedThrowingContinuation { (done: CheckedContinuation<[PacedRequests.Reply], any Error>) in
            let thread = Thread { done.resume(with: Result { try sender.run(requests, first: .milliseconds(100), interval: interval) }) }
            thread.name = "answers"
            thread.start()
        }
        let elapsed = seconds(ContinuousClock.now - start) - 0.1
        if ProcessInfo.processInfo.environment["JUKE_LOAD_SLOW"] != nil {
            for (i, reply) in replies.enumerated() where reply.milliseconds > 20 {
                say(String(format: "slow %d %.1f %.4f", i, reply.milliseconds, reply.at))
            }
        }
        let sorted = replies.map(\.milliseconds).sorted()
        let errors = Dictionary(replies.filter { $0.status != 202 }.map { ($0.status, 1) }, uniquingKeysWith: +)
        return String(
            format: "  %d guesses offered at %d/s, done in %.1f s (%.0f/s): p50 %.2f ms, p99 %.2f ms, max %.1f ms (target p99 20 ms); %@",
            sorted.count, guessRate, elapsed, Double(sorted.count) / elapsed, percentile(sorted, 0.5), percentile(sorted, 0.99), sorted.last ?? .nan,
            errors.isEmpty ? "all accepted" : "refused: \(errors)")
    }

    /// The server's request durations of answers (`/metrics`).
    func answerHistogram(_ send: LoopbackHTTP.Send) async throws -> Histogram {
        let reply = try await send("GET", "/metrics", nil, nil)
        return Histogram(
            prometheus: String(decoding: reply.body, as: UTF8.self), name: "juke_http_request_duration_seconds",
            label: #"route="/api/v1/tunetrivia/sessions/{session_id}/guess""#)
    }

    func histogram(_ send: LoopbackHTTP.Send) async throws -> Histogram {
        let reply = try await send("GET", "/metrics", nil, nil)
        return Histogram(prometheus: String(decoding: reply.body, as: UTF8.self), name: "juke_tunetrivia_push_delay_seconds")
    }

    /// A top-level string field of a JSON object.
    static func field(_ name: String, in body: Data) -> String? {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?[name] as? String
    }
}

/// A line of the report, written at once (stdout is buffered when piped).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func ms(_ d: Duration) -> Double { seconds(d) * 1000 }

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

/// Requests to the server under test: one on a connection of its own, or many spread over
/// kept-alive connections (`each`).
struct HTTPPool: Sendable {
    let port: Int

    /// One request on a connection of its own.
    func call(_ method: String, _ path: String, _ token: String?, _ json: String?) async throws -> LoopbackHTTP.Reply {
        let box = Mutex<LoopbackHTTP.Reply?>(nil)
        try await LoopbackHTTP.connect(port: port).session { send in
            let reply = try await send(method, path, token, json)
            box.withLock { $0 = reply }
        }
        guard let reply = box.withLock({ $0 }) else { throw LoadError.closed }
        return reply
    }

    /// Runs `work` for 0..<count over `concurrency` kept-alive connections, each taking the
    /// next index when free.
    func each(
        _ count: Int, concurrency: Int,
        _ work: @escaping @Sendable (Int, (String, String, String?, String?) async throws -> LoopbackHTTP.Reply) async throws -> Void
    ) async throws {
        let next = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<min(concurrency, count) {
                group.addTask {
                    try await LoopbackHTTP.connect(port: port).session { send in
                        while true {
                            let i = next.take()
                            if i >= count { return }
                            try await work(i, send)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

/// Hands out 0, 1, 2, … to concurrent workers.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func take() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}

/// A Prometheus histogram's cumulative buckets, for percentiles of what happened between two
/// readings (to the bucket: "p99 <= 30 ms").
struct Histogram {
    var buckets: [(le: Double, count: Double)] = []

    /// `label`: only the series whose labels include it (one route of a histogram by route).
    init(prometheus text: String, name: String, label: String? = nil) {
        for line in text.split(separator: "\n") where line.hasPrefix("\(name)_bucket{") {
            if let label, !line.contains(label) { continue }
            guard let leStart = line.range(of: "le=\""), let leEnd = line[leStart.upperBound...].firstIndex(of: "\""),
                let value = line.split(separator: " ").last.flatMap({ Double($0) })
            else { continue }
            let le = String(line[leStart.upperBound..<leEnd])
            buckets.append((le == "+Inf" ? .infinity : Double(le) ?? .infinity, value))
        }
        buckets.sort { $0.le < $1.le }
    }

    private init(buckets: [(le: Double, count: Double)]) { self.buckets = buckets }

    static func delta(_ after: Histogram, _ before: Histogram) -> Histogram { combined(after, before, by: -) }

    /// Two histograms of the same buckets, added.
    static func sum(_ a: Histogram, _ b: Histogram) -> Histogram { combined(a, b, by: +) }

    /// `a`'s buckets, each count combined with `b`'s count for the same bound (0 where `b` has none).
    private static func combined(_ a: Histogram, _ b: Histogram, by operation: (Double, Double) -> Double) -> Histogram {
        Histogram(buckets: a.buckets.map { bucket in (bucket.le, operation(bucket.count, b.buckets.first { $0.le == bucket.le }?.count ?? 0)) })
    }

    var count: Int { Int(buckets.last?.count ?? 0) }

    /// The share of observations at most `seconds` (a bucket's bound).
    func share(atMost seconds: Double) -> Double {
        guard let total = buckets.last?.count, total > 0, let bucket = buckets.first(where: { abs($0.le - seconds) < 1e-9 }) else { return .nan }
        return bucket.count / total
    }

    /// The upper bound, in milliseconds, of the bucket holding the percentile.
    func percentile(_ p: Double) -> String {
        guard let total = buckets.last?.count, total > 0 else { return "n/a" }
        for b in buckets where b.count >= total * p {
            return b.le.isInfinite ? "inf" : String(format: "%g", b.le * 1000)
        }
        return "inf"
    }
}
