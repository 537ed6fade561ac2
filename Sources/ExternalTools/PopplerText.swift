import Foundation

/// poppler's `pdftotext` (Debian's poppler-utils), found on PATH like ffmpeg and run the way
/// Juke runs outside tools on outside data: the file in a private temporary file, the tool
/// under an address-space and a CPU-time limit (`ulimit` in `sh`), at low priority (`nice`),
/// ended after `seconds` of wall time, its output read up to `outputBytes`. It reads text
/// better than Juke's own reader on real files (docs/PERFORMANCE.md); Juke's own reader keeps
/// the outline, the title and the author, and reads alone where poppler is missing.
public struct PopplerText: Sendable {
    /// Why pdftotext gave no text.
    public enum Refusal: Error, Equatable {
        /// The file took more than the time or memory budget, or its text is longer than the
        /// output budget: said to the person as too big.
        case tooBig(String)
    }

    public let path: String
    public var seconds = 60
    public var memoryBytes = 1024 * 1024 * 1024
    public var outputBytes = 32 * 1024 * 1024

    public init(path: String) { self.path = path }

    /// pdftotext in the folders of PATH, or nil.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> PopplerText? {
        ExternalTool.locate("pdftotext", environment: environment).map { PopplerText(path: $0.path) }
    }

    /// The limits go on in a shell that then becomes the tool (`exec`): `ulimit` limits the
    /// process itself and so every process it starts. `nice` is used when the system has it.
    func command(input: String) -> [String] {
        var script = "ulimit -v \(memoryBytes / 1024) 2>/dev/null; ulimit -t \(seconds) 2>/dev/null; exec"
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/nice") { script += " /usr/bin/nice -n 10" }
        script += " \"$@\""
        return ["-c", script, "sh", path, "-enc", "UTF-8", "-q", input, "-"]
    }

    /// pdftotext's reading of `pdf` (each page's text ended by a form feed), or nil when it
    /// could not read it (damaged, encrypted with a password, not a PDF to poppler: Juke's own
    /// reader then says what it finds). A budget passed throws `Refusal.tooBig`.
    public func text(of pdf: [UInt8]) async throws -> String? {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("juke-pdf-\(UUID().uuidString).pdf").path
        guard FileManager.default.createFile(atPath: input, contents: Data(pdf), attributes: [.posixPermissions: 0o600]) else { return nil }
        defer { try? FileManager.default.removeItem(atPath: input) }
        let budget = "reading it took more than \(seconds) s or \(memoryBytes / 1024 / 1024) MB"
        do {
            let output = try await ExternalTool(path: "/bin/sh").run(
                command(input: input), limits: .init(deadline: .seconds(seconds + 5), outputBytes: outputBytes))
            return String(decoding: output, as: UTF8.self)
        } catch let failure as ExternalTool.Failure {
            switch failure.kind {
            case .tooMuchOutput: throw Refusal.tooBig("its text is longer than \(outputBytes / 1024 / 1024) MB")
            case .timedOut: throw Refusal.tooBig(budget)
            case .notStarted: return nil
            case .failed:
                // Ended by a signal: the CPU limit's SIGXCPU, or an abort when the memory
                // limit refused an allocation. Any other failure is poppler's "cannot read".
                if failure.description.contains("signal") { throw Refusal.tooBig(budget) }
                return nil
            }
        }
    }
}
