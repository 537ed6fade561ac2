import Foundation
import Synchronization

/// One ffmpeg run: it writes the transcode to a pipe, and a thread of its own copies what
/// comes out into a file beside the cache (`partialPath`) as it comes, counting the bytes, so
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
        var processID: Int32?
        var readers = 0
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

    /// Starts ffmpeg with `arguments` (its output to standard output) and the copying
    /// thread; `ended` is called once, after the phase is final.
    func start(ffmpeg: String, arguments: [String], ended: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            self.run(ffmpeg: ffmpeg, arguments: arguments)
            ended()
        }
        thread.name = "juke-transcode"
        thread.start()
    }

    private func run(ffmpeg: String, arguments: [String]) {
        let output = open(partialPath, O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { return finish(.failed("the transcode cache cannot be written: \(String(cString: strerror(errno)))")) }
        defer { close(output) }
        let errorLog = partialPath + ".log"
        _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorLog) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: errorLog)
        do {
            try process.run()
        } catch {
            return finish(.failed("ffmpeg could not start: \(error)"))
        }
        state.withLock { $0.processID = process.processIdentifier }
        Self.runOnlyWhenIdle(process.processIdentifier)
        let input = pipe.fileHandleForReading.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var writeFailure: String?
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            if writeFailure == nil, !writeAll(output, buffer, count) {
                writeFailure = "the transcode cache cannot be written: \(String(cString: strerror(errno)))"
                kill(process.processIdentifier, SIGKILL)
            }
            if writeFailure == nil { state.withLock { $0.written += Int64(count) } }
        }
        process.waitUntilExit()
        state.withLock { $0.processID = nil }
        if let writeFailure { return finish(.failed(writeFailure)) }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let said = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            let line = said.split(whereSeparator: \.isNewline).last.map(String.init) ?? "it was stopped"
            return finish(.failed("ffmpeg could not transcode the file: \(line.prefix(300))"))
        }
        guard rename(partialPath, finalPath) == 0 else { return finish(.failed("the finished transcode could not be kept")) }
        finish(.finished)
    }

    /// Linux's SCHED_IDLE (5; glibc names it only under _GNU_SOURCE): ffmpeg runs only on
    /// CPU time nothing else wants, and a request's thread that wakes takes the core at once.
    /// A low nice value is not enough: the scheduler lets a running task finish its slice
    /// (about 3 ms) before a woken one, which showed as search p99 going from 1.2 to 9.5 ms
    /// with 8 transcodes running at nice 19 (3.5 ms under SCHED_IDLE, the machine's floor
    /// with any background work). A transcode needs about 1% of a core to keep ahead of
    /// playback, so on a server that is not saturated it never waits long.
    static func runOnlyWhenIdle(_ process: Int32) {
        var parameters = sched_param()
        parameters.sched_priority = 0
        if sched_setscheduler(process, 5, &parameters) != 0 {
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(process), 19)
        }
    }

    private func writeAll(_ descriptor: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
        var done = 0
        while done < count {
            let wrote = buffer.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress.map { $0 + done }, count - done) }
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
        let stop = state.withLock { state -> Int32? in
            state.readers -= 1
            guard state.readers == 0, stopsWhenUnread, state.phase == .running else { return nil }
            return state.processID
        }
        // SIGKILL: the server ignores SIGTERM (service-lifecycle catches it by dispatch
        // source) and a child inherits that, so ffmpeg would never see a SIGTERM.
        if let stop { kill(stop, SIGKILL) }
    }
}
