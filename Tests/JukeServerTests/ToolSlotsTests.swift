import ExternalTools
import Foundation
import Synchronization
import Testing

@testable import JukePlatform

/// One pool of slots for every outside program the server starts (transcodes, clips, cover
/// blurs, speech, PDF reads), with a short line behind them and a 503 with Retry-After past
/// it (issue 49): never an unbounded pile of processes.
@Suite(.timeLimit(.minutes(5))) struct ToolSlotsTests {
    final class Counts: Sendable {
        let alive = Atomic<Int>(0)
        let most = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
    }

    /// A program that waits until `release` exists in `folder`, and says in `started` that it ran.
    static func waitingTool(_ folder: String) throws -> ExternalTool {
        let script = folder + "/tool.sh"
        try """
        #!/bin/sh
        echo started >> '\(folder)/started'
        while [ ! -e '\(folder)/release' ]; do sleep 0.02; done
        printf '\\211PNG\\r\\n\\032\\nfake'
        """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return ExternalTool(path: script)
    }

    static func startedCount(_ folder: String) -> Int {
        ((try? String(contentsOfFile: folder + "/started", encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-tool-slots-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func pastTheSlotsAndTheLineAProgramIsRefusedAndNoMoreThanTheSlotsRunAtOnce() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tool = try Self.waitingTool(folder)
        let slots = ToolSlots(size: 2, waiting: 2)
        let counts = Counts()
        let runs = (0..<6).map { _ in
            Task { () -> Bool in
                do {
                    try await slots.run {
                        _ = try await tool.stream(
                            [],
                            started: { _ in
                                let now = counts.alive.add(1, ordering: .relaxed).newValue
                                counts.most.max(now, ordering: .relaxed)
                            }
                        ) { output in for try await _ in output {} }
                        counts.alive.subtract(1, ordering: .relaxed)
                    }
                    return true
                } catch let error as APIError {
                    #expect(error.status == .serviceUnavailable && error.retryAfter != nil)
                    counts.refused.add(1, ordering: .relaxed)
                    return false
                }
            }
        }
        // Two run, two wait in line, two are refused at once.
        while counts.refused.load(ordering: .relaxed) < 2 || Self.startedCount(folder) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(slots.waiting == 2)
        _ = FileManager.default.createFile(atPath: folder + "/release", contents: nil)
        var done = 0
        for run in runs where try await run.value { done += 1 }
        #expect(done == 4 && counts.refused.load(ordering: .relaxed) == 2)
        #expect(counts.most.load(ordering: .relaxed) == 2, "never more programs alive than slots")
        #expect(Self.startedCount(folder) == 4)
        #expect(slots.running == 0 && slots.waiting == 0)
    }

    /// The server's own background work (the demos it makes) waits for a slot however long
    /// the line is, rather than being refused.
    @Test func theServersOwnWorkWaitsInsteadOfBeingRefused() async throws {
        let slots = ToolSlots(size: 1, waiting: 0)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let started = Atomic<Bool>(false)
        let first = Task {
            try await slots.run {
                started.store(true, ordering: .relaxed)
                for await _ in release { break }
            }
        }
        while !started.load(ordering: .relaxed) { await Task.yield() }
        await #expect(throws: APIError.self) { try await slots.run { 1 } }
        let patient = Task { try await slots.runWhenFree { 2 } }
        while slots.waiting == 0 { await Task.yield() }
        releaser.yield()
        try await first.value
        #expect(try await patient.value == 2)
    }

    /// Two asking for the same cover at once share one ffmpeg, and a cover blurred once is
    /// blurred for good (kept on disk, as clips are): a later server starts none for it.
    @Test func aSecondBlurOfTheSameCoverStartsNoProgram() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tool = try Self.waitingTool(folder)
        let blur = CoverBlur(ffmpeg: tool, folder: folder + "/blurred")
        let cover = Data([1, 2, 3])
        let first = Task { try await blur.tiny(cover, key: "abc") }
        let second = Task { try await blur.tiny(cover, key: "abc") }
        while Self.startedCount(folder) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        // Time for a second program to start, were it to.
        try await Task.sleep(for: .milliseconds(300))
        _ = FileManager.default.createFile(atPath: folder + "/release", contents: nil)
        let made = try await first.value
        #expect(made != nil)
        #expect(try await second.value == made)
        #expect(try await blur.tiny(cover, key: "abc") == made)
        #expect(Self.startedCount(folder) == 1, "one program for one cover")
        let restarted = CoverBlur(ffmpeg: tool, folder: folder + "/blurred")
        #expect(try await restarted.tiny(cover, key: "abc") == made)
        #expect(Self.startedCount(folder) == 1, "kept on disk: a restarted server blurs it again with no program")
    }
}
