import CLinuxSystem
import Foundation
import Synchronization

/// A program Juke starts and waits for (ffmpeg, espeak-ng, pdftotext), started with
/// posix_spawn rather than Foundation's `Process`.
///
/// Why not `Process`: on Linux, Swift 6.3's Foundation finds the descriptors to close in the
/// child by copying each `/proc/self/fd` entry's whole 256-byte name, past the end of what
/// readdir returned, and now and then that read falls off a page: the whole server crashes
/// (swift-corelibs-foundation#5472, seen here in a test run). Here the child closes every
/// inherited descriptor above its three itself (glibc's addclosefrom), so a client's socket
/// or a database file never lives on in an ffmpeg, and its signals start as the defaults:
/// the server ignores SIGTERM and SIGPIPE, and a child would inherit that.
public final class ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// /dev/null.
        case discarded
        /// A pipe; the parent's end is `output` or `errors`.
        case pipe
        /// An open descriptor of the caller's (a log file), which stays the caller's.
        case descriptor(Int32)
    }

    /// How the child ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case killed(signal: Int32)

        public var succeeded: Bool { self == .exited(0) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The child's process id.
    public let id: pid_t
    /// The parent's end of the child's standard output, when it is a pipe.
    public let output: FileHandle?
    /// The parent's end of the child's standard error, when it is a pipe.
    public let errors: FileHandle?

    /// Nil while the child may still run; set once it has ended and been waited for, after
    /// which its id may be another process's and is never signalled.
    private let ended = Mutex<Termination?>(nil)

    private init(id: pid_t, output: FileHandle?, errors: FileHandle?) {
        self.id = id
        self.output = output
        self.errors = errors
    }

    /// Starts `executable` (a path) with `arguments` and this process's environment; its
    /// standard input is /dev/null.
    public static func start(
        _ executable: String, arguments: [String], output: Stream = .discarded, errors: Stream = .discarded
    ) throws(Failure) -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var everySignal = sigset_t()
        sigfillset(&everySignal)
        var noSignal = sigset_t()
        sigemptyset(&noSignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignal)
        // A process group of its own, so that `kill` reaches what it starts too (pdftotext
        // under `timeout`).
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        // The parent's ends of the pipes, and the child's ends to close here once it has them.
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        func closeAll(_ descriptors: [Int32]) { for descriptor in descriptors { close(descriptor) } }

        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pipes: [Int32: Int32] = [:]
        for (target, stream) in [(Int32(1), output), (Int32(2), errors)] {
            switch stream {
            case .discarded:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .descriptor(let descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard juke_pipe_close_on_exec(&ends) == 0 else {
                    let reason = String(cString: strerror(errno))
                    closeAll(parentEnds + childEnds)
                    throw Failure(description: "\(executable) could not start: no pipe (\(reason))")
                }
                parentEnds.append(ends[0])
                childEnds.append(ends[1])
                pipes[target] = ends[0]
                // dup2 clears close-on-exec on the copy the child keeps.
                posix_spawn_file_actions_adddup2(&actions, ends[1], target)
            }
        }
        // Everything else the server has open stays out of the child (where glibc is too old
        // for this, the descriptors Juke and SwiftNIO open are close-on-exec anyway).
        _ = juke_spawn_close_from(&actions, 3)

        var arguments = ([executable] + arguments).map { strdup($0) }
        defer { for argument in arguments { free(argument) } }
        arguments.append(nil)
        var id: pid_t = 0
        let code = posix_spawn(&id, executable, &actions, &attributes, arguments, environ)
        closeAll(childEnds)
        guard code == 0 else {
            closeAll(parentEnds)
            throw Failure(description: "\(executable) could not start: \(String(cString: strerror(code)))")
        }
        return ChildProcess(
            id: id, output: pipes[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) },
            errors: pipes[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) })
    }

    /// Sends `signal` (SIGKILL by default) to the child and every process it started, unless
    /// the child has already been waited for.
    public func kill(_ signal: Int32 = SIGKILL) {
        ended.withLock { termination in
            if termination == nil { _ = Glibc.kill(-id, signal) }
        }
    }

    /// Waits until the child ends (blocking the calling thread) and says how.
    @discardableResult
    public func wait() -> Termination {
        if let termination = ended.withLock({ $0 }) { return termination }
        // First wait without collecting the child, so that a `kill` meanwhile still signals
        // this child and never a process that took its id; then collect it under the lock.
        var information = siginfo_t()
        while waitid(P_PID, id_t(id), &information, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        return ended.withLock { termination in
            if let termination { return termination }
            var status: Int32 = 0
            var collected = waitpid(id, &status, 0)
            while collected < 0, errno == EINTR { collected = waitpid(id, &status, 0) }
            let result: Termination
            if collected == id {
                let signal = status & 0x7f
                result = signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal: signal)
            } else {
                // Collected elsewhere (SIGCHLD ignored): what waitid saw is all there is.
                let code = information._sifields._sigchld.si_status
                result = information.si_code == CLD_EXITED ? .exited(code) : .killed(signal: code)
            }
            termination = result
            return result
        }
    }

    /// Whether the child has not been waited for yet.
    public var isRunning: Bool { ended.withLock { $0 == nil } }
}
