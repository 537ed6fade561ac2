import ExternalTools
import Foundation
import Synchronization

/// One ffmpeg run: it writes the transcode to a pipe, and its task copies what comes out
/// into a file beside the cache (`partialPath`) as it comes, counting the bytes, so
/// that any number of responses can follow the file as it grows and the finished file
/// becomes the cache's entry. A pipe, not a file, is ffmpeg's output: ffmpeg would go back
/// to rewrite a file's start (an MP3's Xing frame) after readers had sent it.
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
        /// The task running ffmpeg: cancelling it ends ffmpeg's process group.
        var task: Task<Void, Never>?
    }

    let key: String
    let partialPath: String
    let finalPath: String
    /// A seek's transcode (from a time offset) stops when nobody follows it any more; a
    /// whole track's runs on into the cache, since it is likely asked for again.
    let stopsWhenUnread: Bool
    let state = Mutex(State())

    init(key: String, partialPath: String, finalPath: String, stopsWhenUnread: Bool) {
        self.key = key
        self.partialPath = partialPath
        self.finalPath = finalPath
        self.stopsWhenUnread = stopsWhenUnread
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
            // deadline only ends one that stopped making progress for good.
            try await ffmpeg.stream(arguments, limits: .init(deadline: .seconds(3600), onlyWhenIdle: true)) { [self] chunks in
                for try await chunk in chunks {
                    let wrote = chunk.withUnsafeBytes { Self.writeAll(output, $0) }
                    guard wrote else { throw CacheUnwritable(reason: String(cString: strerror(errno))) }
                    self.state.withLock { $0.written += Int64(chunk.count) }
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

    /// A response starts following the file.
    func attach() { state.withLock { $0.readers += 1 } }

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
    }
}
