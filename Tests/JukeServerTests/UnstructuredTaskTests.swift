import Foundation
import Testing

/// Work that outlives its request belongs to `BackgroundWork` (a service of the server's
/// group, which shutdown cancels and awaits), not to a task of its own. A new `Task {` or
/// `Task.detached` in Sources fails here unless it is one of the places below, each a task
/// its owner keeps and cancels (or awaits) right there.
@Suite(.timeLimit(.minutes(1))) struct UnstructuredTaskTests {
    /// Each file's unstructured tasks: how many, and why each is not `BackgroundWork`'s.
    static let allowed: [String: (count: Int, reason: String)] = [
        "Sources/Back2BackServer/Service/Back2BackService.swift": (
            2,
            "its DJ work is kept in `work` and its grace timer in `stop()`: `stop()` (run by the app's service at shutdown) lets the work finish for a moment, cancels it and awaits it"
        ),
        "Sources/Back2BackServer/Service/TurnTimers.swift": (2, "turn and away timers, kept per session and cancelled when replaced and by `stop()`"),
        "Sources/Back2BackServer/Service/PlayerPresence.swift": (1, "the player's grace timer, kept per page and cancelled when replaced and by `stop()`"),
        "Sources/Back2BackServer/DJ/DJSelector.swift": (1, "feeds a stream; cancelled when the stream's reader lets it go (`onTermination`)"),
        "Sources/DualPlayerServer/Podcasts/EpisodeProxy.swift": (
            1, "the host's bytes for one listener's response: cancelled when the response ends or is refused (`defer`)"
        ),
        "Sources/DualPlayerServer/Relay/StationRelay.swift": (
            2, "the station's connection and its idle check, kept in the relay's state and cancelled when it closes (`shutdown` at the server's)"
        ),
        "Sources/JukePlatform/Network/EventStreamMiddleware.swift": (
            1, "an event stream's writer, awaited by its response and cancelled by the connection's close or the response's cancellation"
        ),
        "Sources/JukePlatform/Catalog/CatalogSearch.swift": (
            1, "the index being rebuilt, shared by the searches that await it; swapped in by `BackgroundWork`, which cancels it at shutdown"
        ),
        "Sources/JukePlatform/Catalog/LibrarySnapshot.swift": (1, "one read of the library shared by the callers that await it"),
        "Sources/JukePlatform/Media/Transcoding/Transcoder.swift": (1, "a clip being cut, shared by the requests that await it"),
        "Sources/JukePlatform/Media/Transcoding/TranscodeJob.swift": (
            1,
            "one ffmpeg transcode, kept in the job: cancelled (its process group killed) when a seek's listeners all go; a whole track's runs on into the cache, and frees its slot when it ends, even where no BackgroundWork runs (tests build a Transcoder alone)"
        ),
        "Sources/MediaStorage/S3/S3Multipart.swift": (
            1, "a failed upload's abort, awaited at once: in a task of its own so that a cancelled upload is still aborted"
        ),
        "Sources/MediaStorage/S3/ResponseBodyPump.swift": (
            2,
            "a body piece's read, awaited right there (cancelled with its reader, or by the idle watchdog), and that watchdog, cancelled once the piece came"
        ),
        "Sources/Providers/OpenAI/OpenAIStreaming.swift": (1, "feeds a stream; cancelled when the stream's reader lets it go (`onTermination`)"),
        "Sources/Providers/HTTP/HTTPClient.swift": (
            1, "a stream's request, pump and idle watchdog: cancelled when its reader lets the stream go (`onTermination`)"
        ),
        "Sources/JukePlatform/Media/CoverBlur.swift": (
            1, "one blur shared by every request for the same cover at once, awaited by each; it finishes for the others when one goes away"
        ),
        "Sources/LiveUpdates/Hub/VersionBoard.swift": (1, "a watcher's heartbeat, cancelled when the watcher's stream ends (`onTermination`)"),
        "Sources/RunBeatServer/Spotify/SpotifyAccountService.swift": (1, "one token refresh shared by the callers that await it"),
        "Sources/Storage/Database/PostgresDatabase.swift": (1, "the connection pool's run, cancelled and awaited by `shutdown()` (the database service's)"),
        "Sources/Storage/Database/SQLiteDatabase.swift": (
            4,
            "closes and a read awaited right there (a cancelled task would refuse them), and the checkpoint, kept and awaited by `shutdown()` (the database service's)"
        ),
        "Sources/Storage/Database/Uncancelled.swift": (
            1, "a transaction's COMMIT or ROLLBACK, awaited right there: a cancelled task would refuse it and leave the transaction open"
        ),
        "Sources/TuneTriviaServer/Service/TuneTriviaService.swift": (
            1,
            "a game's command queue drained: every command in it has a request awaiting its reply, so it runs while they wait (cancelled, they would hang)"
        ),
        "Sources/TuneTriviaServer/Live/TriviaHub.swift": (
            3,
            "a room's timer and heartbeat, kept in the room and cancelled when it closes; and a frame built off the actor (milliseconds of CPU, no I/O; dropped if the room has gone)"
        ),
        "Sources/JukeTestSupport/ConfirmedListen.swift": (1, "test support: a listener the test awaits"),
    ]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Task {`, `Task(priority: …) {`, `Task.detached {` outside comments.
    static func unstructuredTasks(in text: String) -> Int {
        let pattern = /\bTask(\.detached)?\s*(\([^)]*\))?\s*\{/
        return text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { count, line in
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return count + code.matches(of: pattern).count
        }
    }

    @Test func noUnstructuredTaskOutsideTheAllowedPlaces() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var found: [String: Int] = [:]
        for case let url as URL in files where url.pathExtension == "swift" {
            let count = Self.unstructuredTasks(in: try String(contentsOf: url, encoding: .utf8))
            guard count > 0 else { continue }
            found[String(url.path.dropFirst(Self.root.path.count + 1))] = count
        }
        for (path, count) in found.sorted(by: { $0.key < $1.key }) {
            let allowed = Self.allowed[path]?.count ?? 0
            #expect(
                count <= allowed,
                "\(path) starts \(count) unstructured task(s), \(allowed) allowed: run the work with the platform's BackgroundWork (platform.background.start), or keep the task in its owner, cancelled or awaited there, and list it here with why"
            )
        }
        // The list stays honest: a place that no longer has its task is taken off.
        for (path, entry) in Self.allowed where (found[path] ?? 0) < entry.count {
            Issue.record("\(path) is allowed \(entry.count) task(s) but has \(found[path] ?? 0): lower its count")
        }
    }

    @Test func theScanSeesEachForm() {
        #expect(Self.unstructuredTasks(in: "let t = Task { await work() }") == 1)
        #expect(Self.unstructuredTasks(in: "Task.detached(priority: .background) { prepare() }") == 1)
        #expect(Self.unstructuredTasks(in: "Task(priority: .high) {") == 1)
        #expect(Self.unstructuredTasks(in: "var t: Task<Void, Never>? // Task { in a comment }") == 0)
        #expect(Self.unstructuredTasks(in: "try await Task.sleep(for: .seconds(1))") == 0)
        #expect(Self.unstructuredTasks(in: "group.addTask { await work() }") == 0)
    }
}
