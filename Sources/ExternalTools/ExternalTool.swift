import Foundation
import Subprocess
import SystemPackage

/// A program from the system (ffmpeg, espeak-ng, pdftotext), found on PATH and run the one
/// way Juke runs programs: through swift-subprocess (posix_spawn, descriptors above the three
/// closed with close_range, signals reset to their defaults, the child watched by a pidfd),
/// never Foundation's `Process`, whose start lists /proc/self/fd and can crash the server
/// (swift-corelibs-foundation#5472). Each run is asynchronous: no thread waits on it.
///
/// The program starts in a process group of its own, so that ending it ends what it started
/// too (pdftotext under `nice`, a shell's children). It is ended (SIGKILL to the group) when
/// the task awaiting it is cancelled (a request that went away, a server shutting down), when
/// its deadline passes, and when it writes more than its output budget. Standard output and
/// standard error are read together: a tool that writes much to one never waits for a reader
/// of the other.
public struct ExternalTool: Sendable {
    /// Why a run failed, in words for the log.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public enum Kind: Sendable, Equatable {
            /// The program could not be started.
            case notStarted
            /// It exited with a failure, or was ended by a signal it did not expect.
            case failed
            /// Its deadline passed: it was ended.
            case timedOut
            /// It wrote more than its output budget: it was ended.
            case tooMuchOutput
        }

        public let kind: Kind
        public let description: String

        public init(_ kind: Kind, _ description: String) {
            self.kind = kind
            self.description = description
        }
    }

    /// What one run may take.
    public struct Limits: Sendable {
        /// Wall time before the program and its group are ended.
        public var deadline: Duration
        /// Standard output past this many bytes ends the run with `.tooMuchOutput`.
        public var outputBytes: Int

        public init(deadline: Duration = .seconds(300), outputBytes: Int = 64 << 20) {
            self.deadline = deadline
            self.outputBytes = outputBytes
        }
    }

    /// How much of standard error is kept for the failure's message: its first bytes, the
    /// rest read and dropped.
    static let errorBytesKept = 4096

    public let path: String

    public init(path: String) { self.path = path }

    /// The tool named `name` in the folders of PATH, or nil.
    public static func locate(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> ExternalTool? {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }.map(ExternalTool.init)
    }

    public var name: String { (path as NSString).lastPathComponent }

    /// Runs the program to its end and returns what it wrote to standard output. Throws when
    /// it cannot start, exits with a failure (with the start of what it said on standard
    /// error), passes its deadline or its output budget, or when the awaiting task is
    /// cancelled (`CancellationError`, the program ended).
    @discardableResult
    public func run(_ arguments: [String], limits: Limits = Limits()) async throws -> [UInt8] {
        let budget = limits.outputBytes
        let name = self.name
        return try await stream(arguments, limits: limits) { output in
            var collected: [UInt8] = []
            for try await chunk in output {
                guard collected.count + chunk.count <= budget else {
                    throw Failure(.tooMuchOutput, "\(name) wrote more than \(budget) bytes")
                }
                chunk.withUnsafeBytes { collected.append(contentsOf: $0) }
            }
            return collected
        }
    }

    /// Runs the program and hands its standard output, as it comes, to `read`; returns what
    /// `read` returns once the program has ended well. `started` hears the process id as soon
    /// as it runs. The same ending rules as `run`.
    public func stream<Result: Sendable>(
        _ arguments: [String], limits: Limits = Limits(), started: @escaping @Sendable (Int32) -> Void = { _ in },
        read: @escaping @Sendable (SubprocessOutputSequence) async throws -> Result
    ) async throws -> Result {
        let options = Self.platformOptions
        let name = self.name
        let path = self.path
        let outcome: ExecutionResult<(Result, String), SequenceOutput, SequenceOutput>
        do {
            outcome = try await Deadline.run(limits.deadline, name: name) {
                try await Subprocess.run(
                    .path(FilePath(path)), arguments: Arguments(arguments), platformOptions: options, input: .none, output: .sequence,
                    error: .sequence
                ) { execution in
                    let process = execution.processIdentifier.value
                    started(process)
                    async let said = Self.head(of: execution.standardError)
                    let result = try await read(execution.standardOutput)
                    return (result, await said)
                }
            }
        } catch let failure as Failure {
            throw failure
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as SubprocessError {
            if Task.isCancelled { throw CancellationError() }
            if error.code == .executableNotFound || error.code == .spawnFailed {
                throw Failure(.notStarted, "\(name) could not start: \(error)")
            }
            throw Failure(.failed, "\(name) failed: \(error)")
        }
        let (result, said) = outcome.closureResult
        switch outcome.terminationStatus {
        case .exited(0):
            return result
        case .exited(let code):
            throw Failure(.failed, "\(name) failed (exit \(code)): \(said)")
        case .signaled(let signal):
            if Task.isCancelled { throw CancellationError() }
            throw Failure(.failed, "\(name) was ended by signal \(signal): \(said)")
        }
    }

    /// A group of its own, so that the kill reaches what the program started, never Juke;
    /// the kill is SIGKILL at once (the server ignores SIGTERM, and a program's clean-up is
    /// of no use to a request that went away).
    static var platformOptions: PlatformOptions {
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
        return options
    }

    /// The start of what a program says on standard error; the rest is read and dropped, so
    /// the program never blocks on a full pipe.
    static func head(of errors: SubprocessOutputSequence) async -> String {
        var kept: [UInt8] = []
        do {
            for try await chunk in errors where kept.count < errorBytesKept {
                chunk.withUnsafeBytes { kept.append(contentsOf: $0.prefix(errorBytesKept - kept.count)) }
            }
        } catch {
            // A read cut short by the program's end: what was kept is what it said.
        }
        return String(decoding: kept, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Linux's SCHED_IDLE (5; glibc names it only under _GNU_SOURCE): from now on the program
    /// runs only on CPU time nothing else wants, and a request's thread that wakes takes the
    /// core at once (a low nice value is not enough on this kernel, EEVDF: a running task
    /// finishes its slice, about 3 ms, before a woken one). For work nobody is waiting on, such
    /// as a transcode well ahead of its listeners. One way: without privilege a program cannot
    /// leave SCHED_IDLE, and on a host kept busy by other work it may wait as long as that lasts.
    public static func runOnlyWhenIdle(_ process: Int32) {
        var parameters = sched_param()
        parameters.sched_priority = 0
        if sched_setscheduler(process, 5, &parameters) != 0 {
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(process), 19)
        }
    }
}
