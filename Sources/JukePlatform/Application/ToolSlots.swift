import Foundation

/// The slots every outside program the server starts takes one of (ffmpeg's transcodes, clips
/// and cover blurs, espeak-ng's speech, pdftotext's reads): one pool sized to the machine
/// (`--tool-slots`, a slot per core by default), a short line behind it, and past that a 503
/// with Retry-After at once. However many requests arrive, no more programs run than slots,
/// and their memory and processes stay bounded with them (issue 49).
///
/// Built once by the platform and handed to every service that starts a program.
public final class ToolSlots: Sendable {
    let gate: WorkGate

    /// A slot per core, at least two.
    public static var machineSize: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    /// `size` programs at once, `waiting` in line (four per slot unless said).
    public init(size: Int = ToolSlots.machineSize, waiting: Int? = nil) {
        let size = max(1, size)
        gate = WorkGate(
            running: size, waiting: waiting ?? size * 4,
            refusal: APIError(
                status: .serviceUnavailable, code: "tools_busy",
                message: "Juke's tools (ffmpeg, pdftotext, espeak-ng) are all at work just now; try again in a few seconds.", retryAfter: 5))
    }

    /// Programs that may run at once.
    public var size: Int { gate.running }
    /// Slots taken now.
    public var running: Int { gate.active }
    /// Runs waiting for a slot now.
    public var waiting: Int { gate.queued }

    /// Runs `job` (which starts one program at a time) once a slot is free; throws the 503
    /// refusal (`APIError`, code `tools_busy`) at once when every slot is taken and the line is full.
    public func run<T: Sendable>(_ job: @Sendable () async throws -> T) async throws -> T {
        try await gate.run(job)
    }

    /// `run` for the server's own work (the demos it makes, a few at a time): it waits in line
    /// however long the line is, and is never refused.
    public func runWhenFree<T: Sendable>(_ job: @Sendable () async throws -> T) async throws -> T {
        try await gate.run(patient: true, job)
    }

    /// A slot held beyond one call (a transcode runs on after its request has its first
    /// bytes): `take`, then `give` exactly once.
    func take() async throws { try await gate.enter() }
    func give() { gate.leave() }
}
