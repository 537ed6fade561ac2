import Foundation
import JukePlatform

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to a test server, for requests no HTTP client would send (a
/// garbage request line, a megabyte of headers, a head that never ends) and to watch the
/// server close it.
///
/// Its calls block, so they run on a thread of their own (`exchange`): blocking the few
/// threads of Swift's cooperative pool would starve the server under test of them.
final class RawConnection {
    private let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(fd) }

    /// Runs blocking socket work on a thread of its own (not the server's `BlockingWork`
    /// pool, whose few threads a test's reads of up to 20 s would take from the server).
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Connects, sends `request`, and returns what came back before the server closed the
    /// connection (nil: still open after `seconds`).
    static func exchange(port: Int, _ request: String, within seconds: Double = 20) async throws -> String? {
        try await offThePool {
            let connection = try RawConnection(port: port)
            connection.send(request)
            return connection.readUntilClosed(within: seconds)
        }
    }

    /// Sends everything; false when the server has closed the connection meanwhile.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// What the server has sent once `marker` arrives, or nil when it has not within `seconds`
    /// (or the connection closed first).
    func read(until marker: String, within seconds: Double) -> String? {
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
                let text = String(decoding: received, as: UTF8.self)
                if text.contains(marker) { return text }
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                return nil
            }
        }
        return nil
    }

    /// Everything the server sends until it closes the connection, or nil when it is still
    /// open after `seconds`.
    func readUntilClosed(within seconds: Double) -> String? {
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                return String(decoding: received, as: UTF8.self)
            }
        }
        return nil
    }
}
