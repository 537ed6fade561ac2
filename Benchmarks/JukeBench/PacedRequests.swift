import Foundation

#if canImport(Glibc)
    import Glibc
    import CLinuxSystem  // epoll and timerfd, which Glibc's module leaves out
#endif

/// HTTP requests sent at a steady rate over kept-alive connections, by one thread with
/// epoll and a timer: the players' answers in the load benchmark.
///
/// The load client shares the machine's two cores with the server it measures (see
/// `Watchers`). Its previous answers, a Swift task per connection over SwiftNIO's
/// asynchronous channels with a `Task.sleep` per answer, took a third of a core for a
/// thousand answers a second, about a dozen thread switches per answer on a machine whose
/// every switch is a virtual CPU woken by an interrupt. Here an answer costs a write(2), a
/// read(2) and a share of one epoll_wait.
struct PacedRequests {
    struct Reply {
        /// Milliseconds from when the request was due until its whole reply was read, so a
        /// request held back because every connection was busy counts its wait.
        let milliseconds: Double
        let status: Int
        /// When the reply was read (CLOCK_MONOTONIC seconds, to line up with `perf`).
        let at: Double
    }

    let port: Int
    let connections: Int

    /// Sends `requests[i]` (a whole HTTP/1.1 request) at `first + i * interval` on whichever
    /// connection is free, and returns each one's reply in the same order. Blocks its thread.
    func run(_ requests: [[UInt8]], first: Duration, interval: Duration) throws -> [Reply] {
        let sockets = try (0..<min(connections, max(requests.count, 1))).map { _ in try open() }
        defer { for fd in sockets { close(fd) } }
        let poller = epoll_create1(0)
        guard poller >= 0 else { throw Self.failure("epoll_create1") }
        defer { close(poller) }
        let timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK))
        guard timer >= 0 else { throw Self.failure("timerfd_create") }
        defer { close(timer) }
        // The timer's events carry -1; a connection's, its index.
        try watch(timer, as: -1, on: poller)
        for (i, fd) in sockets.enumerated() { try watch(fd, as: Int32(i), on: poller) }

        let start = Self.now() + seconds(first)
        let step = seconds(interval)
        var replies = [Reply?](repeating: nil, count: requests.count)
        var free = Array((0..<sockets.count).reversed())
        var current = [Int](repeating: -1, count: sockets.count)  // the request each connection is on
        var received = [[UInt8]](repeating: [], count: sockets.count)
        var next = 0
        var done = 0
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while done < requests.count {
            // Everything due goes out now, as far as connections are free.
            let now = Self.now()
            while next < requests.count, !free.isEmpty, start + Double(next) * step <= now {
                let connection = free.removeLast()
                guard LoopbackSocket.writeAll(sockets[connection], requests[next]) else { throw Self.failure("write") }
                current[connection] = next
                next += 1
            }
            // Wake for the next one due, unless it waits for a connection anyway.
            if next < requests.count, !free.isEmpty { arm(timer, at: start + Double(next) * step) }
            let ready = epoll_wait(poller, &events, Int32(events.count), 30_000)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { throw LoadError.refused("no reply to an answer for 30 s") }
            for event in events.prefix(Int(ready)) {
                if event.data.u32 == UInt32(bitPattern: -1) {
                    var expirations: UInt64 = 0
                    _ = Glibc.read(timer, &expirations, 8)
                    continue
                }
                let index = Int(event.data.u32)
                let fd = sockets[index]
                while true {
                    let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if n > 0 {
                        received[index] += chunk[..<n]
                        continue
                    }
                    if n < 0, errno == EINTR { continue }
                    if n == 0 { throw LoadError.closed }
                    break  // EAGAIN: all read for now
                }
                guard let (status, length) = Self.completeResponse(received[index]) else { continue }
                let request = current[index]
                guard request >= 0, length == received[index].count else { throw LoadError.refused("a reply nobody asked for") }
                let at = Self.now()
                replies[request] = Reply(milliseconds: (at - (start + Double(request) * step)) * 1000, status: status, at: at)
                received[index].removeAll(keepingCapacity: true)
                current[index] = -1
                free.append(index)
                done += 1
            }
        }
        return replies.compactMap { $0 }
    }

    /// A kept-alive connection, non-blocking.
    private func open() throws -> Int32 {
        let fd = try LoopbackSocket.connect(port: port)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    private func watch(_ fd: Int32, as tag: Int32, on poller: Int32) throws {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u32 = UInt32(bitPattern: tag)
        guard epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event) == 0 else { throw Self.failure("epoll_ctl") }
    }

    /// Sets the timer to go off once at `time` (CLOCK_MONOTONIC seconds); a time already
    /// past fires at once.
    private func arm(_ timer: Int32, at time: Double) {
        let whole = time.rounded(.down)
        var setting = itimerspec()
        setting.it_value = timespec(tv_sec: Int(whole), tv_nsec: max(1, Int((time - whole) * 1e9)))
        timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &setting, nil)
    }

    /// The status and the whole length of the HTTP/1.1 response at the start of `bytes`, once
    /// all of it has arrived (a Content-Length body or a chunked one).
    static func completeResponse(_ bytes: [UInt8]) -> (status: Int, length: Int)? {
        guard let headEnd = bytes.withUnsafeBytes({ Marker("\r\n\r\n").offset(in: $0) }) else { return nil }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self).lowercased()
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("http/1.1 "),
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { return nil }
        let bodyStart = headEnd + 4
        func header(_ name: String) -> Substring? {
            lines.dropFirst().first { $0.hasPrefix(name + ":") }.map { $0.dropFirst(name.count + 1).drop { $0 == " " } }
        }
        if header("transfer-encoding")?.contains("chunked") == true {
            // Chunks: a hexadecimal size, CRLF, that many bytes, CRLF; the last has size 0.
            var at = bodyStart
            while true {
                guard let sizeEnd = bytes[at...].withUnsafeBytes({ Marker("\r\n").offset(in: $0) }).map({ at + $0 }),
                    let sizeText = String(decoding: bytes[at..<sizeEnd], as: UTF8.self).split(separator: ";").first,
                    let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16)
                else { return nil }
                at = sizeEnd + 2 + size + 2
                if size == 0 { return at <= bytes.count ? (status, at) : nil }
                if at > bytes.count { return nil }
            }
        }
        let length = header("content-length").flatMap { Int($0) } ?? 0
        return bytes.count >= bodyStart + length ? (status, bodyStart + length) : nil
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    private static func failure(_ call: String) -> LoadError {
        LoadError.refused("\(call): \(String(cString: strerror(errno)))")
    }
}
