import Foundation
import Synchronization
import Testing

@testable import ExternalTools

/// Programs run the one way Juke runs them: output and errors read together, a deadline, an
/// output budget, cancellation and deadlines ending the whole process group, nothing of the
/// server's inherited (descriptors, ignored signals).
@Suite(.timeLimit(.minutes(5))) struct ExternalToolTests {
    let shell = ExternalTool(path: "/bin/sh")

    /// Whether process `pid` is gone (or a zombie nobody has collected yet), looked at until
    /// `seconds` pass: a killed grandchild is collected by init a moment later.
    func gone(_ pid: Int32, within seconds: Double = 20) async throws -> Bool {
        let until = Date().addingTimeInterval(seconds)
        while Date() < until {
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            // The state is the field after the name in parentheses: Z is a zombie.
            if stat == nil || stat?.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).first == "Z" { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test func itsOutputIsReturned() async throws {
        let output = try await shell.run(["-c", "printf 'hello\\nworld'"])
        #expect(String(decoding: output, as: UTF8.self) == "hello\nworld")
    }

    @Test func aFailureSaysWhatTheProgramSaid() async throws {
        await #expect {
            try await shell.run(["-c", "echo 'no such codec' >&2; exit 3"])
        } throws: { error in
            guard let failure = error as? ExternalTool.Failure else { return false }
            return failure.kind == .failed && failure.description.contains("exit 3") && failure.description.contains("no such codec")
        }
    }

    /// A program that fills the error pipe (64 KiB) before it writes its output waits for a
    /// reader of its errors: read one after the other, neither side would ever move.
    @Test func outputAndErrorsAreReadTogether() async throws {
        let script = "head -c 1000000 /dev/zero >&2; head -c 1000000 /dev/zero"
        let output = try await shell.run(["-c", script], limits: .init(deadline: .seconds(60)))
        #expect(output.count == 1_000_000)
    }

    @Test func anOutputPastItsBudgetEndsTheRun() async throws {
        await #expect {
            try await shell.run(["-c", "head -c 2000000 /dev/zero"], limits: .init(outputBytes: 10_000))
        } throws: { ($0 as? ExternalTool.Failure)?.kind == .tooMuchOutput }
    }

    @Test func aMissingProgramIsSaidToBeMissing() async throws {
        await #expect {
            try await ExternalTool(path: "/nonexistent/ffmpeg").run([])
        } throws: { ($0 as? ExternalTool.Failure)?.kind == .notStarted }
    }

    /// Past the deadline the whole group goes: the shell and the `sleep` it started.
    @Test func theDeadlineEndsTheProgramAndWhatItStarted() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("juke-tool-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        await #expect {
            try await shell.run(["-c", "sleep 300 & echo $! > \(file); wait"], limits: .init(deadline: .milliseconds(1500)))
        } throws: { ($0 as? ExternalTool.Failure)?.kind == .timedOut }
        let child = try #require(Int32(try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(try await gone(child), "the sleep the shell started was ended with it")
    }

    /// A request that goes away (its task cancelled) ends the program at once.
    @Test func cancellingTheTaskEndsTheProgram() async throws {
        let started = StartedProcess()
        let run = Task {
            try await shell.stream(["-c", "sleep 300"], started: { started.set($0) }) { output in
                for try await _ in output {}
            }
        }
        var pid: Int32?
        for _ in 0..<400 where pid == nil {
            pid = started.value
            if pid == nil { try await Task.sleep(for: .milliseconds(25)) }
        }
        let process = try #require(pid)
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.value }
        #expect(try await gone(process))
    }

    /// The server's open descriptors (its sockets, database files) are not the program's.
    @Test func theProgramInheritsNoDescriptorButTheThree() async throws {
        let kept = open("/dev/null", O_RDONLY)  // without O_CLOEXEC, on purpose
        defer { close(kept) }
        let listing = try await shell.run(["-c", "ls /proc/$$/fd"])
        let descriptors = String(decoding: listing, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { Int($0) }
        #expect(!descriptors.contains(Int(kept)))
        #expect(Set(descriptors).isSuperset(of: [0, 1, 2]))
        #expect(descriptors.allSatisfy { $0 <= 2 || $0 > 2 && $0 != Int(kept) })
    }

    /// The server ignores SIGPIPE (and SIGTERM, caught by service-lifecycle): a program must
    /// not inherit that, or a kill by SIGTERM and a closed pipe would not end it.
    @Test func theProgramStartsWithNoSignalIgnored() async throws {
        signal(SIGPIPE, SIG_IGN)
        let status = String(decoding: try await shell.run(["-c", "grep SigIgn /proc/$$/status"]), as: UTF8.self)
        let mask = try #require(status.split(separator: ":").last.flatMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines), radix: 16) })
        // Signal n is bit n - 1. Only the standard signals: glibc keeps two realtime ones
        // (32 and 33) for its threads, out of anyone's reach.
        #expect(mask & (1 << (UInt64(SIGPIPE) - 1)) == 0, "SigIgn: \(status)")
        #expect(mask & 0x7FFF_FFFF == 0, "SigIgn: \(status)")
    }
}

/// The process id a run hands back when it starts.
final class StartedProcess: Sendable {
    private let box = Mutex<Int32?>(nil)
    var value: Int32? { box.withLock { $0 } }
    func set(_ pid: Int32) { box.withLock { $0 = pid } }
}
