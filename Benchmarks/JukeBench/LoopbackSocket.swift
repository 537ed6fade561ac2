import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The load client's raw TCP connections to the server under test on 127.0.0.1.
enum LoopbackSocket {
    /// Puts the calling thread, a receiver standing for the players' phones, at idle
    /// priority (SCHED_IDLE): it reads when the server leaves a core free. Real phones take
    /// none of the server's CPU. At normal priority, the reader woke 2,400 times during a
    /// reveal and each wakeup preempted an event loop (about 1,200 involuntary switches of
    /// one loop); at idle priority, about 50. What it has not read waits in its sockets'
    /// buffers; the clients' figures include that wait. The loopback floor's receiver
    /// does the same, so the two stay comparable.
    static func readAtIdlePriority() throws {
        let idle: Int32 = 5  // SCHED_IDLE (<linux/sched.h>), which Glibc's module leaves out
        var parameters = sched_param(sched_priority: 0)
        guard sched_setscheduler(0, idle, &parameters) == 0 else {
            throw LoadError.refused("sched_setscheduler(SCHED_IDLE): \(String(cString: strerror(errno)))")
        }
    }

    /// A connected socket with TCP_NODELAY (a request goes out at once), still blocking.
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoadError.refused("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            let code = errno
            close(fd)
            throw LoadError.refused("connect: \(String(cString: strerror(code)))")
        }
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Writes all of `bytes`; false if the connection failed or, non-blocking, had no room.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { all in all.baseAddress.map { Glibc.write(fd, $0 + sent, all.count - sent) } ?? 0 }
            if n > 0 {
                sent += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
