import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
    import CLinuxSystem  // the affinity calls, which Glibc's module leaves out (they are GNU's)
#elseif canImport(Darwin)
    import Darwin
#endif

/// Pins each of SwiftNIO's event loops to a CPU of its own (Linux).
///
/// A TuneTrivia reveal keeps every event loop busy writing to its share of the room, and
/// each loop needs a core to itself for that. Left to the scheduler, the two loops of a
/// 2-core machine were seen sharing one core for 70 ms of a reveal while the other ran the
/// reading side of the load benchmark (a profile of a reveal that missed its target: p50
/// twice the usual). Pinned, no loop ever waits for another's core; whatever else runs
/// (the database, Swift's task pool) is not pinned and goes where there is room.
public enum EventLoopPinning {
    /// The CPUs the calling thread may run on (its affinity mask: the process's, for a
    /// thread nobody pinned), in order; empty where that is not known (other systems).
    public static func allowedCPUs() -> [Int] {
        #if canImport(Glibc)
            // CPU_SETSIZE: a cpu_set_t's bits.
            var cpus = [CInt](repeating: 0, count: MemoryLayout<cpu_set_t>.size * 8)
            let count = cpus.withUnsafeMutableBufferPointer { juke_thread_allowed_cpus($0.baseAddress, CInt($0.count)) }
            return count < 0 ? [] : cpus.prefix(Int(count)).map(Int.init)
        #else
            return []
        #endif
    }

    /// The CPU for each of `loops` loops: in turn, so that loops share a CPU only when there
    /// are more loops than CPUs. Nil when pinning would change nothing (one CPU, or none
    /// known).
    public static func assignment(loops: Int, cpus: [Int]) -> [Int]? {
        guard cpus.count > 1, loops > 0 else { return nil }
        return (0..<loops).map { cpus[$0 % cpus.count] }
    }

    /// Pins each loop of `group` (SwiftNIO's own group unless told otherwise) to its CPU of
    /// `assignment`, from the loop's own thread. Returns the CPUs in loop order, or nil when
    /// nothing was pinned.
    public static func pin(_ group: MultiThreadedEventLoopGroup = .singleton) async throws -> [Int]? {
        let loops = Array(group.makeIterator())
        guard let cpus = assignment(loops: loops.count, cpus: allowedCPUs()) else { return nil }
        for (loop, cpu) in zip(loops, cpus) {
            try await loop.submit { try pinCurrentThread(to: cpu) }.get()
        }
        return cpus
    }

    /// The calling thread runs on `cpu` only.
    static func pinCurrentThread(to cpu: Int) throws {
        #if canImport(Glibc)
            guard let cpu32 = CInt(exactly: cpu) else { throw PinningError(cpu: cpu, code: EINVAL) }
            let code = juke_pin_thread_to_cpu(cpu32)
            guard code == 0 else { throw PinningError(cpu: cpu, code: code) }
        #endif
    }

    public struct PinningError: Error, CustomStringConvertible {
        public let cpu: Int
        public let code: Int32
        public var description: String { "could not pin an event loop to CPU \(cpu): \(String(cString: strerror(code)))" }
    }
}
