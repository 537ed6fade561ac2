import Foundation

/// poppler's `pdftotext` (Debian's poppler-utils), found on PATH like ffmpeg and run the way
/// Juke runs outside tools on outside data: the file in a private temporary file, the tool
/// under an address-space and a CPU-time limit (`ulimit` in `sh`), killed after `seconds` of
/// wall time (`timeout`), at low priority (`nice`), its output read up to `outputBytes`. It
/// reads text better than Juke's own reader on real files (docs/PERFORMANCE.md), which keeps
/// the outline, the title and the author, and reads alone where poppler is missing.
public struct PopplerText: PDFTextSource {
    public let path: String
    public var seconds = 60
    public var memoryBytes = 1024 * 1024 * 1024
    public var outputBytes = 32 * 1024 * 1024

    public init(path: String) { self.path = path }

    /// pdftotext in the folders of PATH, or nil.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> PopplerText? {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        return folders.map { "\($0)/pdftotext" }.first { FileManager.default.isExecutableFile(atPath: $0) }.map(PopplerText.init)
    }

    /// The limits go on in a shell that then becomes the tool (`exec`): `ulimit` limits the
    /// process itself and so every process it starts. `nice` and `timeout` are used when the
    /// system has them (coreutils does).
    func command(input: String) -> [String] {
        var script = "ulimit -v \(memoryBytes / 1024) 2>/dev/null; ulimit -t \(seconds) 2>/dev/null; exec"
        for (tool, arguments) in [("/usr/bin/nice", "-n 10"), ("/usr/bin/timeout", "-s KILL \(seconds)")]
        where FileManager.default.isExecutableFile(atPath: tool) {
            script += " \(tool) \(arguments)"
        }
        script += " \"$@\""
        return ["-c", script, "sh", path, "-enc", "UTF-8", "-q", input, "-"]
    }

    public func text(of pdf: [UInt8]) throws(ArticleError) -> String? {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("juke-pdf-\(UUID().uuidString).pdf").path
        guard FileManager.default.createFile(atPath: input, contents: Data(pdf), attributes: [.posixPermissions: 0o600]) else { return nil }
        defer { try? FileManager.default.removeItem(atPath: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = command(input: input)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        // Should `timeout` be missing or stop itself, the process is still ended in time.
        let deadline = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds + 5), execute: deadline)
        defer { deadline.cancel() }
        var data = Data()
        let reader = output.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
            if data.count > outputBytes {
                process.terminate()
                process.waitUntilExit()
                throw .tooBig("its text is longer than \(outputBytes / 1024 / 1024) MB")
            }
        }
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal { throw .tooBig("reading it took more than \(seconds) s or \(memoryBytes / 1024 / 1024) MB") }
        switch process.terminationStatus {
        case 0: return String(decoding: data, as: UTF8.self)
        // 124 and up: timeout's own (time passed, or the tool killed by a signal such as the
        // CPU limit's SIGXCPU, or aborted when the memory limit refused an allocation).
        case 124...: throw .tooBig("reading it took more than \(seconds) s or \(memoryBytes / 1024 / 1024) MB")
        // Damaged, encrypted or not a PDF to poppler: Juke's own reader says what it finds.
        default: return nil
        }
    }
}
