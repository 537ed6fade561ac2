import ChildProcesses
import Foundation
import Synchronization

/// A media tool from the system (ffmpeg, espeak-ng), found on PATH and run to completion.
/// Juke runs without them and says what is missing; what they do is never on a request's
/// only path to an answer.
public struct ExternalTool: Sendable {
    /// Why a tool failed, in words for the log.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public let path: String

    public init(path: String) { self.path = path }

    /// The tool named `name` in the folders of PATH, or nil.
    public static func locate(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> ExternalTool? {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }.map(ExternalTool.init)
    }

    public var name: String { (path as NSString).lastPathComponent }

    /// Runs the tool and returns what it wrote to standard output; throws with the start of
    /// its error output when it exits with a failure. For small outputs (an image, a report):
    /// both are kept in memory, standard error read on a thread of its own so that a tool
    /// that says much on it never waits for a reader. With `stop`, a stop asked for while it
    /// runs kills the tool and throws (what it was writing is thrown away).
    @discardableResult
    public func run(_ arguments: [String], stop: StopRequest? = nil) throws(Failure) -> Data {
        let child: ChildProcess
        do {
            child = try ChildProcess.start(path, arguments: arguments, output: .pipe, errors: .pipe)
        } catch {
            throw Failure(description: error.description)
        }
        let said = Mutex(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        if let errors = child.errors {
            Thread {
                let message = errors.readDataToEndOfFile()
                said.withLock { $0 = message }
                errorsRead.signal()
            }.start()
        } else {
            errorsRead.signal()
        }
        // SIGKILL on a stop: what the tool was writing is of no use any more.
        let (data, termination) = (stop ?? StopRequest()).whileRunning(onStop: { child.kill() }) {
            let data = child.output?.readDataToEndOfFile() ?? Data()
            return (data, child.wait())
        }
        errorsRead.wait()
        if stop?.isRequested == true { throw Failure(description: "\(name) was stopped: the server is shutting down") }
        guard termination.succeeded else {
            let message = said.withLock { $0 }
            throw Failure(description: "\(name) failed: \(String(decoding: message.prefix(500), as: UTF8.self))")
        }
        return data
    }
}
