import Foundation

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
    /// standard error is read after standard output. With `stop`, a stop asked for while it
    /// runs kills the tool and throws (what it was writing is thrown away).
    @discardableResult
    public func run(_ arguments: [String], stop: StopRequest? = nil) throws(Failure) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(description: "\(name) could not start: \(error)")
        }
        let running = RunningProcess(process: process)
        let (data, message) = (stop ?? StopRequest()).whileRunning(onStop: running.terminate) {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            let message = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (data, message)
        }
        if stop?.isRequested == true { throw Failure(description: "\(name) was stopped: the server is shutting down") }
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(name) failed: \(String(decoding: message.prefix(500), as: UTF8.self))")
        }
        return data
    }
}

/// A started tool, ended from the thread that asks for a stop while another waits for it.
private struct RunningProcess: @unchecked Sendable {
    // Only `terminate` is called from the other thread, and it reads the process's id alone.
    let process: Process

    /// SIGKILL, not Process.terminate's SIGTERM: the server's signal handling sets SIGTERM to
    /// be ignored, and a child inherits that, so an ffmpeg sent SIGTERM ran on for 20 s.
    func terminate() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
