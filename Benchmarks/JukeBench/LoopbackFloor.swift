import Dispatch
import ExternalTools
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
    import CLinuxSystem  // epoll, which Glibc's module leaves out
#endif

/// What this machine can do at best for a reveal: the same number of TCP connections on
/// loopback, one message of the reveal's size written to each with plain write(2) from two
/// threads (Juke's server has two event loops), received by another process that reads
/// them with epoll. No WebSocket, JSON or event loop: the kernel's own cost per send, which
/// on loopback includes the receiver's TCP processing. The reveal's figures are divided by
/// this floor's, measured in the same run (Scripts/bench-trivia.sh).
enum LoopbackFloor {
    struct Round {
        /// Milliseconds from the round's start until the write to a connection returned.
        let p50: Double
        let p99: Double
        let last: Double
    }

    /// The sending side: `rounds` rounds over `connections` connections, each a message of
    /// `size` bytes to every connection.
    static func measure(connections: Int, size: Int, writers: Int = 2, rounds: Int = 5) async throws -> [Round] {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw FloorError.system("socket", errno) }
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 4096) == 0 else { throw FloorError.system("bind", errno) }
        // A receiver that fails to connect them all must not leave this side waiting forever.
        var patience = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(listener, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        let port = Int(UInt16(bigEndian: address.sin_port))

        // The receiver, a process of its own as the players' phones would be.
        let receiver = Task {
            try await ExternalTool(path: "/proc/self/exe").run(
                ["loopback-floor-receiver", String(port), String(connections)], limits: .init(deadline: .seconds(600)))
        }
        defer { receiver.cancel() }
        var sockets: [Int32] = []
        sockets.reserveCapacity(connections)
        defer { for fd in sockets { close(fd) } }
        var on: Int32 = 1
        while sockets.count < connections {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { throw FloorError.system("accept", errno) }
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            sockets.append(fd)
        }
        try await Task.sleep(for: .milliseconds(300))  // the receiver is in epoll_wait

        let message = [UInt8](repeating: UInt8(ascii: "x"), count: size)
        var results: [Round] = []
        for _ in 0..<rounds {
            let done = UnsafeMutableBufferPointer<Double>.allocate(capacity: connections)
            defer { done.deallocate() }
            let start = ContinuousClock.now
            // Each writer fills its own indices of `done`.
            nonisolated(unsafe) let times = done
            let fds = sockets
            let failures = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: writers) { writer in
                message.withUnsafeBytes { bytes in
                    for i in stride(from: writer, to: fds.count, by: writers) {
                        if write(fds[i], bytes.baseAddress, bytes.count) != bytes.count { failures.add(1, ordering: .relaxed) }
                        times[i] = ms(ContinuousClock.now - start)
                    }
                }
            }
            let failed = failures.load(ordering: .relaxed)
            if failed > 0 { throw FloorError.system("write (\(failed) of \(connections) short or failed)", errno) }
            let sorted = done.sorted()
            results.append(Round(p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), last: sorted.last ?? .nan))
            try await Task.sleep(for: .milliseconds(500))  // received before the next round
        }
        for fd in sockets { close(fd) }
        sockets = []
        _ = try await receiver.value
        return results
    }

    /// The receiving side (`JukeBench loopback-floor-receiver <port> <connections>`): opens
    /// the connections, reads whatever arrives until the sender closes them all.
    static func receive(port: Int, connections: Int) throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        try LoopbackSocket.readAtIdlePriority()  // as the load client's reader does
        let poller = epoll_create1(0)
        guard poller >= 0 else { throw FloorError.system("epoll_create1", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        for _ in 0..<connections {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard fd >= 0, connected else { throw FloorError.system("connect", errno) }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = fd
            epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event)
        }
        var open = connections
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open > 0 {
            let ready = epoll_wait(poller, &events, Int32(events.count), 10_000)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { throw FloorError.system("epoll_wait (nothing for 10 s)", errno) }
            for event in events.prefix(Int(ready)) {
                let fd = event.data.fd
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    // A short read most likely emptied the socket; epoll tells again if not
                    // (as the load client reads).
                    if count == buffer.count { continue }
                    if count > 0 { break }
                    if count == 0 {
                        close(fd)
                        open -= 1
                    }
                    break
                }
            }
        }
    }

    enum FloorError: Error, CustomStringConvertible {
        case system(String, Int32)
        var description: String {
            switch self {
            case .system(let call, let code): "loopback floor: \(call) failed: \(String(cString: strerror(code)))"
            }
        }
    }
}
