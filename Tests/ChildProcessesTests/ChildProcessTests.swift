import ChildProcesses
import Foundation
import Testing

@Suite(.timeLimit(.minutes(2))) struct ChildProcessTests {
    func text(_ handle: FileHandle?) -> String {
        String(decoding: handle?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }

    @Test func outputErrorsAndExitStatusComeBack() throws {
        let child = try ChildProcess.start("/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 3"], output: .pipe, errors: .pipe)
        #expect(text(child.output) == "out\n")
        #expect(text(child.errors) == "err\n")
        #expect(child.wait() == .exited(3))
        #expect(!child.isRunning)
        #expect(child.wait() == .exited(3), "asked again, the same answer")
        let quiet = try ChildProcess.start("/bin/sh", arguments: ["-c", "echo nobody reads this; exit 0"])
        #expect(quiet.output == nil && quiet.errors == nil)
        #expect(quiet.wait().succeeded)
    }

    @Test func aMissingProgramIsAClearFailure() {
        #expect(throws: ChildProcess.Failure.self) { try ChildProcess.start("/nonexistent/juke-tool", arguments: []) }
    }

    /// A descriptor the server has open without close-on-exec (a client's socket, a
    /// database file) never reaches the child.
    @Test func theChildInheritsNoDescriptorButItsThree() throws {
        let path = NSTemporaryDirectory() + "juke-child-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let open = Glibc.open(path, O_RDONLY)
        #expect(open > 2)
        defer { close(open) }
        let child = try ChildProcess.start("/bin/sh", arguments: ["-c", "ls /proc/$$/fd"], output: .pipe)
        let listed = Set(text(child.output).split(separator: "\n").compactMap { Int32($0) })
        #expect(child.wait().succeeded)
        #expect(listed.isSuperset(of: [0, 1, 2]))
        #expect(!listed.contains(open), "\(listed)")
    }

    /// The child's signals start as the defaults, whatever this process ignores (the server
    /// ignores SIGTERM and SIGPIPE).
    @Test func signalsStartAsTheDefaults() throws {
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        // grep itself (exec, not a fork of sh: sh blocks every signal around its forks).
        let child = try ChildProcess.start("/bin/sh", arguments: ["-c", "exec grep -E '^Sig(Ign|Blk)' /proc/self/status"], output: .pipe)
        let lines = text(child.output).split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
        #expect(child.wait().succeeded)
        #expect(lines.count == 2)
        // Signals 1 to 31; glibc keeps 32 and 33 for itself.
        for line in lines { #expect(line.last.flatMap { UInt64($0, radix: 16) }.map { $0 & 0x7fff_ffff } == 0, "\(lines)") }
    }

    /// `kill` ends the child and what it started (pdftotext under `timeout`).
    @Test func killReachesWhatTheChildStarted() throws {
        let child = try ChildProcess.start("/bin/sh", arguments: ["-c", "sleep 60 & echo $!; wait"], output: .pipe)
        let output = try #require(child.output)
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let grandchild = try #require(Int32(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(child.isRunning)
        child.kill()
        #expect(child.wait() == .killed(signal: SIGKILL))
        // The sleep is gone, or a zombie waiting for init: either way it no longer runs.
        var state = "R"
        for _ in 0..<600 {
            guard let stat = try? String(contentsOfFile: "/proc/\(grandchild)/stat", encoding: .utf8) else {
                state = "gone"
                break
            }
            state = stat.split(separator: ")").last.flatMap { $0.split(separator: " ").first.map(String.init) } ?? "?"
            if state == "Z" || state == "X" { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(["gone", "Z", "X"].contains(state))
        child.kill()  // after the wait: nothing is signalled
    }
}
