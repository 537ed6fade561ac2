import ExternalTools
import Foundation
import Synchronization

/// One ffmpeg run: it writes the transcode to a pipe, and its task copies what comes out
/// into a file beside the cache (`partialPath`) as it comes, counting the bytes, so
/// that any number of responses can follow the file as it grows and the finished file
/// becomes the cache's entry. A pipe, not a file, is ffmpeg's output: ffmpeg would go back
/// to rewrite a file's start (an MP3's Xing frame) after readers had sent it.
///
/// ffmpeg runs at the server's own priority while a listener is close behind it (waiting for
/// bytes, or about to): their bytes are the answer to a request. Once it is `lead` bytes ahead
/// of every listener, or nobody follows it any more (a whole track finishing into the cache),
/// it runs on idle CPU time only, for good, so that work nobody waits for never delays a
/// request. Idle time only from the start starved listeners on a host kept busy by other
/// work: a client's 10-second read timed out at load 20 before the first byte.
final class TranscodeJob: Sendable {
    enum Phase: Equatable, Sendable {
        case running
        case finished
        case failed(String)
    }

    struct State: Sendable {
        var written: Int64 = 0
        var phase = Phase.running
        var readers = 0
        /// The furthest any listener has read (one who left counts too: ffmpeg then goes
        /// idle `lead` bytes later than it might, which costs nothing but that lead).
        var furthestRead: Int64 = 0
        /// ffmpeg's process, once started.
        var process: Int32?
        /// Whether ffmpeg was moved to idle CPU time (it stays there).
        var idleOnly = false
        /// The task running ffmpeg: cancelling it ends ffmpeg's process group.
        var task: Task<Void, Never>?

        /// Whether nobody waits for what ffmpeg writes next.
        func nobodyWaits(lead: Int64, stopsWhenUnread: Bool) -> Bool {
            (readers == 0 && !stopsWhenUnread) || written - furthestRead >= lead
        }
    }

    let key: String
    let partialPath: String
    let finalPath: String
    /// A seek's transcode (from a time offset) stops when nobody follows it any more; a
    /// whole track's runs on into the cache, since it is likely asked for again.
    let stopsWhenUnread: Bool
    /// How far ahead of every listener ffmpeg runs at the server's priority (bytes of output).
    let lead: Int64
    let state = Mutex(State())

    init(key: String, partialPath: String, finalPath: String, stopsWhenUnread: Bool, lead: Int64) {
        self.key = key
        self.partialPath = partialPath
        self.finalPath = finalPath
        self.stopsWhenUnread = stopsWhenUnread
        self.lead = lead
    }

    var snapshot: State { state.withLock { $0 } }

    /// Starts ffmpeg with `arguments` (its output to standard output), copying what comes
    /// out into the partial file as it comes; `ended` is called once, after the phase is final.
    func start(ffmpeg: ExternalTool, arguments: [String], ended: @escaping @Sendable () async -> Void) {
        let task = Task { [self] in
            await self.run(ffmpeg: ffmpeg, arguments: arguments)
            await ended()
        }
        state.withLock { $0.task = task }
    }

    private func run(ffmpeg: ExternalTool, arguments: [String]) async {
        let output = open(partialPath, O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { return finish(.failed("the transcode cache cannot be written: \(String(cString: strerror(errno)))")) }
        defer { close(output) }
        do {
            // A whole track's transcode of a long file takes minutes at idle priority; the
            // deadline only ends one that stopped making progress for good. Once ffmpeg has
            // ended (and been reaped) its process id may be another's: forgotten.
            defer { self.state.withLock { $0.process = nil } }
            let started: @Sendable (Int32) -> Void = { [self] process in
                self.state.withLock { $0.process = process }
                self.moveToIdleIfNobodyWaits()
            }
            try await ffmpeg.stream(arguments, limits: .init(deadline: .seconds(3600)), started: started) { [self] chunks in
                for try await chunk in chunks {
                    let wrote = chunk.withUnsafeBytes { Self.writeAll(output, $0) }
                    guard wrote else { throw CacheUnwritable(reason: String(cString: strerror(errno))) }
                    self.state.withLock { $0.written += Int64(chunk.count) }
                    self.moveToIdleIfNobodyWaits()
                }
            }
        } catch let failure as CacheUnwritable {
            return finish(.failed("the transcode cache cannot be written: \(failure.reason)"))
        } catch let failure as ExternalTool.Failure {
            return finish(.failed("ffmpeg could not transcode the file: \(failure.description.prefix(300))"))
        } catch {
            return finish(.failed("ffmpeg could not transcode the file: it was stopped"))
        }
        guard rename(partialPath, finalPath) == 0 else { return finish(.failed("the finished transcode could not be kept")) }
        finish(.finished)
    }

    private struct CacheUnwritable: Error { let reason: String }

    private static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        let count = buffer.count
        while done < count {
            let wrote = Foundation.write(descriptor, buffer.baseAddress.map { $0 + done }, count - done)
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { return false }
            done += wrote
        }
        return true
    }

    private func finish(_ phase: Phase) {
        if phase != .finished { unlink(partialPath) }
        state.withLock { $0.phase = phase }
    }

    /// Moves ffmpeg to idle CPU time once nobody waits for its output (see the type's note).
    private func moveToIdleIfNobodyWaits() {
        // Under the lock, with `run` forgetting the id under it as soon as ffmpeg is reaped:
        // a process id is reused only after wrapping around, far longer than that moment.
        state.withLock { state in
            guard !state.idleOnly, state.phase == .running, let process = state.process,
                state.nobodyWaits(lead: lead, stopsWhenUnread: stopsWhenUnread)
            else { return }
            state.idleOnly = true
            ExternalTool.runOnlyWhenIdle(process)
        }
    }

    /// A response starts following the file.
    func attach() { state.withLock { $0.readers += 1 } }

    /// A response has read the file up to `offset`.
    func read(upTo offset: Int64) {
        state.withLock { $0.furthestRead = max($0.furthestRead, offset) }
    }

    /// A response stopped following it (it ended, or the listener went); a seek's transcode
    /// nobody follows is stopped.
    func detach() {
        let stop = state.withLock { state -> Task<Void, Never>? in
            state.readers -= 1
            guard state.readers == 0, stopsWhenUnread, state.phase == .running else { return nil }
            return state.task
        }
        // Cancelling the run ends ffmpeg's process group (SIGKILL).
        stop?.cancel()
        moveToIdleIfNobodyWaits()
    }
}
