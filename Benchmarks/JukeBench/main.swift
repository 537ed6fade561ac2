import Foundation
import JukeCore
import Library
import Logging
import Matching
import MediaFormats
import Storage

/// Juke's side of the benchmarks. Each prints one line of figures; Scripts/bench.sh runs
/// the reference tools on the same input in the same run and prints the ratios.
///   JukeBench tags <folder> [rounds]      read every file's tags; best round's files per second
///   JukeBench chapters <file> [rounds] [json]  one file's chapters, read again and again (ChaptersBench.swift)
///   JukeBench rescan <folder>             scan once, then time an unchanged rescan
///   JukeBench search <tracks> [queries]   search latency percentiles over a synthetic library
///   JukeBench judge <judged-guesses.tsv> [rounds]
///                                         the guess judge's cost per guess (JudgeBench.swift)
///   JukeBench trivia-load <port> <database> [players] [guesses/s]
///                                         one TuneTrivia party game under load (TriviaLoad.swift)
///   JukeBench runbeat-load <port> <database> [runners] [seconds]
///                                         RunBeat in a gym: runners streaming samples, sample-to-cue latency (RunBeatLoad.swift)
///   JukeBench loopback-floor <connections> <bytes> [reveal p99 ms at the server] [at the clients]
///                                         the machine's floor for a reveal, and the ratios (LoopbackFloor.swift)

func files(under folder: String) -> [String] {
    guard let e = FileManager.default.enumerator(atPath: folder) else { return [] }
    return e.compactMap { $0 as? String }.filter { TagReader.extensions.contains(($0 as NSString).pathExtension.lowercased()) }
        .map { (folder as NSString).appendingPathComponent($0) }.sorted()
}

func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

func benchTags(_ folder: String, rounds: Int) {
    let paths = files(under: folder)
    var best = Double.infinity
    var failures = 0
    var titles = 0
    for _ in 0..<rounds {
        failures = 0
        titles = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for path in paths {
                if let meta = try? TagReader.read(path: path) { titles += meta.title == nil ? 0 : 1 } else { failures += 1 }
            }
        }
        best = min(best, seconds(elapsed))
    }
    print(
        String(
            format: "juke tags: %d files in %.3f s (%.0f files/s), %d with a title, %d failed", paths.count, best, Double(paths.count) / best, titles, failures)
    )
}

func benchRescan(_ folder: String) async throws {
    var logger = Logger(label: "bench")
    logger.logLevel = .error
    let dbFolder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dbFolder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dbFolder) }
    let database = try DatabaseFactory.open(.sqlite(path: dbFolder.appendingPathComponent("bench.sqlite").path), logger: logger)
    try await Migrator.migrate(database, schemas: [.platform], logger: logger)
    let store = LibraryStore(database: database)
    let scanner = LibraryScanner(store: store, logger: logger)
    let libraryFolder = try await store.addFolder(path: folder, now: Date())
    let clock = ContinuousClock()
    var first: ScanReport?
    let firstTime = try await clock.measure { first = try await scanner.scan(libraryFolder) }
    var second: ScanReport?
    let secondTime = try await clock.measure { second = try await scanner.scan(libraryFolder) }
    await database.shutdown()
    guard let first, let second else { return }
    print(String(format: "juke first scan: %d files (%d added) in %.3f s", first.progress.filesFound, first.progress.added, seconds(firstTime)))
    print(
        String(format: "juke unchanged rescan: %d files (%d unchanged) in %.3f s", second.progress.filesFound, second.progress.unchanged, seconds(secondTime)))
}

func benchSearch(tracks count: Int, queries: Int) {
    var rng = SystemRandomNumberGenerator()
    let words = [
        "love", "night", "blue", "song", "heart", "fire", "rain", "dance", "moon", "river", "home", "road", "light", "dream", "city",
        "summer", "gold", "wild", "street", "angel", "storm", "sweet", "lonely", "electric", "paradise", "velvet", "thunder", "silver", "ocean", "echo",
    ]
    let names = ["Smith", "Beyoncé", "Müller", "García", "Nakamura", "O'Brien", "Johansson", "Kowalski", "Dubois", "Rossi", "Nguyen", "Andersen"]
    func phrase(_ n: Int) -> String { (0..<n).map { _ in words.randomElement(using: &rng) ?? "" }.joined(separator: " ").capitalized }
    let folder = LibraryFolderID()
    let now = Date()
    var library: [Track] = []
    library.reserveCapacity(count)
    for i in 0..<count {
        let artist = "\(names[i % names.count]) \(phrase(1)) \(i % 5000)"
        library.append(
            Track(
                id: TrackID(), folderID: folder, path: "/bench/\(i)", fileSize: 1, modifiedMillis: 1, format: "mp3",
                title: phrase(Int.random(in: 1...4, using: &rng)), artist: artist, album: phrase(2), albumArtist: artist,
                genre: ["Rock", "Pop", "Jazz", "Classical", "Folk"][i % 5], year: 1950 + i % 70, duration: 200, addedAt: now))
    }
    let clock = ContinuousClock()
    var index: LibrarySearchIndex?
    let buildTime = clock.measure { index = LibrarySearchIndex(tracks: library, generation: 1) }
    guard let index else { return }
    // What people type: prefixes of one to three words, as they type them.
    var latencies: [Double] = []
    latencies.reserveCapacity(queries)
    var hits = 0
    for _ in 0..<queries {
        var q = (0..<Int.random(in: 1...3, using: &rng)).map { _ in words.randomElement(using: &rng) ?? "" }.joined(separator: " ")
        q = String(q.prefix(Int.random(in: 1...q.count, using: &rng)))
        let t = clock.measure { hits += index.search(q, limit: 50).ids.count }
        latencies.append(seconds(t) * 1000)
    }
    latencies.sort()
    func p(_ x: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * x))] }
    print(
        String(
            format: "juke search: %d tracks (index built in %.2f s), %d queries: p50 %.3f ms, p99 %.3f ms, max %.3f ms", count, seconds(buildTime), queries,
            p(0.5), p(0.99), latencies.last ?? 0))
}

/// All pairs of queries × choices with `fuzz.ratio`, one core, as RapidFuzz's cdist.
func benchIndel(_ path: String, count: Int) throws {
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let queries = lines[0..<count].map(\.scalarValues)
    let choices = lines[count..<(2 * count)].map(\.scalarValues)
    var best = Double.infinity
    var scores: [Double] = []
    for _ in 0..<3 {
        scores = []
        let t = ContinuousClock().measure { scores = IndelMatrix.ratios(queries: queries, choices: choices) }
        best = min(best, seconds(t))
    }
    let pairs = Double(count * count)
    print(String(format: "juke indel: %.0f pairs in %.3f s (%.0f pairs/s), checksum %.6f", pairs, best, pairs / best, scores.reduce(0, +)))
    // RapidFuzz's own scores, written by the reference script: every pair must agree.
    let reference = try Data(contentsOf: URL(fileURLWithPath: path + ".scores")).withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
    let same = zip(scores, reference).filter { abs($0 - $1) < 1e-9 }.count
    print("  scores identical to rapidfuzz's: \(same) of \(scores.count)\(reference.count == scores.count ? "" : " (reference has \(reference.count))")")
}

/// One query against a million catalog entries: Juke's trigram index (build, p50, p99,
/// incremental updates) beside RapidFuzz's exhaustive extractOne, whose best scores it is
/// checked against.
func benchCatalog(_ path: String, referenceP50 reference: Double?) throws {
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    let header = lines[0].split(separator: " ").compactMap { Int($0) }
    guard header.count == 2 else { print("bad catalog file \(path)"); exit(2) }
    let (entries, queryCount) = (header[0], header[1])
    var index = CatalogIndex<Int>()
    let clock = ContinuousClock()
    let build = clock.measure {
        for i in 0..<entries { index.upsert(i, text: String(lines[1 + i])) }
    }
    let queries = lines[(1 + entries)..<(1 + entries + queryCount)].map { line -> (best: Double, text: String) in
        let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        return (Double(parts[0]) ?? -1, parts.count > 1 ? String(parts[1]) : "")
    }
    var latencies: [Double] = []
    var same = 0
    var found = 0
    var misses: [String] = []
    for _ in 0..<3 {  // three rounds; latencies from all, agreement from the last
        same = 0
        found = 0
        for q in queries {
            var hits: [CatalogIndex<Int>.Hit] = []
            latencies.append(seconds(clock.measure { hits = index.search(q.text, limit: 1) }) * 1000)
            let score = hits.first?.score ?? 0
            if abs(score - q.best) < 1e-6 { same += 1 } else if misses.count < 8 { misses.append("\(q.text) → \(score) vs \(q.best)") }
            if q.best >= 80 { found += abs(score - q.best) < 1e-6 ? 1 : 0 }
        }
    }
    latencies.sort()
    func p(_ x: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * x))] }
    let strong = queries.filter { $0.best >= 80 }.count
    print(
        String(
            format: "juke catalog index over %d entries: built in %.1f s; %d queries: p50 %.3f ms, p99 %.3f ms",
            entries, seconds(build), queryCount, p(0.5), p(0.99)))
    print(
        String(
            format: "  same best score as extractOne: %d/%d (%.1f%%); where extractOne's best is >= 80: %d/%d (%.1f%%)",
            same, queryCount, 100 * Double(same) / Double(queryCount), found, strong, 100 * Double(found) / Double(max(1, strong))))
    for miss in Set(misses).sorted() { print("  missed: \(miss)") }
    var updates: [Double] = []
    for i in 0..<1000 {
        updates.append(seconds(clock.measure { index.upsert(i, text: "updated entry number \(i)") }) * 1000)
    }
    updates.sort()
    print(String(format: "  incremental update (replace one entry): p50 %.4f ms, p99 %.4f ms", updates[500], updates[990]))
    if let reference { print(String(format: "ratio: Juke's p50 is %.0fx faster than extractOne's", reference / p(0.5))) }
}

let args = CommandLine.arguments
switch args.count > 1 ? args[1] : "" {
case "tags" where args.count > 2: benchTags(args[2], rounds: args.count > 3 ? Int(args[3]) ?? 3 : 3)
case "chapters" where args.count > 2:
    try ChaptersBench.run(args[2], rounds: args.count > 3 ? Int(args[3]) ?? 1000 : 1000, jsonOut: args.count > 4 ? args[4] : nil)
case "feeds" where args.count > 2: try FeedsBench.run(args[2], rounds: args.count > 3 ? Int(args[3]) ?? 10 : 10)
case "articles" where args.count > 2: try ArticlesBench.run(args[2], rounds: args.count > 3 ? Int(args[3]) ?? 5 : 5)
case "fit" where args.count > 2: try FITBench.run(args[2], rounds: args.count > 3 ? Int(args[3]) ?? 20 : 20)
case "rescan" where args.count > 2: try await benchRescan(args[2])
case "indel" where args.count > 3: try benchIndel(args[2], count: Int(args[3]) ?? 1000)
case "search" where args.count > 2: benchSearch(tracks: Int(args[2]) ?? 100_000, queries: args.count > 3 ? Int(args[3]) ?? 2000 : 2000)
case "catalog" where args.count > 2: try benchCatalog(args[2], referenceP50: args.count > 3 ? Double(args[3]) : nil)
case "judge" where args.count > 2: try JudgeBench.run(args[2], rounds: args.count > 3 ? Int(args[3]) ?? 20 : 20)
case "runbeat-load" where args.count > 3:
    var logger = Logger(label: "load")
    logger.logLevel = .error
    try await RunBeatLoad(
        port: Int(args[2]) ?? 8080, database: args[3], runners: args.count > 4 ? Int(args[4]) ?? 1000 : 1000,
        duration: args.count > 5 ? Int(args[5]) ?? 30 : 30, logger: logger
    ).run()
case "trivia-load" where args.count > 3:
    var logger = Logger(label: "load")
    logger.logLevel = .error
    try await TriviaLoad(
        port: Int(args[2]) ?? 8080, database: args[3], players: args.count > 4 ? Int(args[4]) ?? 10_000 : 10_000,
        guessRate: args.count > 5 ? Int(args[5]) ?? 1000 : 1000, logger: logger
    ).run()
    exit(0)  // the players' sockets close with the process
case "loopback-floor" where args.count > 3:
    // loopback-floor <connections> <bytes> <reveal p99 at the server, ms> [<reveal p99 at the clients, ms>]
    let rounds = try await LoopbackFloor.measure(connections: Int(args[2]) ?? 10_000, size: Int(args[3]) ?? 1000)
    let p99s = rounds.map(\.p99).sorted()
    let median = p99s[p99s.count / 2]
    print(
        String(
            format: "  loopback floor (%@ connections, %@ bytes each, plain write(2) from 2 threads, epoll reader): p99 %@ ms, median %.1f ms",
            args[2], args[3], rounds.map { String(format: "%.1f", $0.p99) }.joined(separator: "/"), median))
    if args.count > 4, let server = Double(args[4]) {
        var ratios = String(format: "  reveal / floor at p99: at the server <= %.1fx", server / median)
        if args.count > 5, let clients = Double(args[5]) { ratios += String(format: ", at the clients %.1fx", clients / median) }
        print(ratios)
    }
case "loopback-floor-receiver" where args.count > 3:
    try LoopbackFloor.receive(port: Int(args[2]) ?? 0, connections: Int(args[3]) ?? 0)
default:
    print(
        "usage: JukeBench tags <folder> [rounds] | feeds <file> [rounds] | articles <folder> [rounds] | fit <file list> [rounds] | rescan <folder> | search <tracks> [queries] | indel <file> <n> | catalog <file> [reference p50 ms] | judge <tsv> [rounds] | trivia-load <port> <database> [players] [guesses/s] | loopback-floor <connections> <bytes> [server p99 ms] [clients p99 ms]"
    )
    exit(2)
}
