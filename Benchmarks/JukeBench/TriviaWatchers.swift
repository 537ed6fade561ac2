import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
    import CLinuxSystem  // epoll, which Glibc's module leaves out
#endif

/// The players' WebSockets: how many have seen a given state, and when.
///
/// The load client shares the machine's two cores with the server it measures, and every
/// CPU cycle it takes is one the server under test lacks: real players' phones do not share
/// the server's processors. So it reads the way the loopback floor's receiver does (one
/// thread, epoll, read(2) into one buffer) and parses the WebSocket frames itself, looking
/// for a marker in each message's bytes where they land. Its previous version, a SwiftNIO
/// pipeline per connection, took a third of the machine at a reveal (a profile of the whole
/// machine: the client's thread 34%, the server's two event loops 60%).
final class Watchers: Sendable {
    private struct State {
        var seen: [Bool]
        var seenCount = 0
        var marker: Marker?
        var since: ContinuousClock.Instant = .now
        var latencies: [Double] = []
        var opened = 0
        /// The size of the last message that had the marker (for the loopback floor).
        var markedSize = 0
    }

    private let state: Mutex<State>
    let players: Int
    private let poller: Int32
    /// Connections upgraded and not yet taken by the reader (who they are, what arrived
    /// with the upgrade's reply). The reader takes them before it handles their events.
    private let arrivals = Mutex<[(fd: Int32, player: Int, leftover: [UInt8])]>([])
    var count: Int { state.withLock { $0.opened } }
    /// How long the last message with the marker was, in bytes.
    var markedSize: Int { state.withLock { $0.markedSize } }

    init(count: Int) throws {
        players = count
        state = Mutex(State(seen: Array(repeating: false, count: count)))
        poller = epoll_create1(0)
        guard poller >= 0 else { throw LoadError.refused("epoll_create1 failed: \(String(cString: strerror(errno)))") }
        // The reader runs at idle priority (`LoopbackSocket.readAtIdlePriority`); the
        // benchmark does not go on without it.
        let ready = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        let thread = Thread { [self] in
            do {
                try LoopbackSocket.readAtIdlePriority()
            } catch {
                failure.withLock { $0 = error }
                ready.signal()
                return
            }
            ready.signal()
            self.read()
        }
        thread.name = "watchers"
        thread.start()
        ready.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Opens a WebSocket for each token (the players', then the host's, which is not
    /// counted), from a few threads at a time as phones scanning a code would arrive.
    func connect(port: Int, session: String, tokens: [String]) async throws {
        let path = "/api/v1/tunetrivia/sessions/\(session)/ws"
        let failures = Mutex<[String]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                let lanes = 16
                DispatchQueue.concurrentPerform(iterations: lanes) { lane in
                    for i in stride(from: lane, to: tokens.count, by: lanes) {
                        do {
                            try self.open(port: port, path: path, token: tokens[i], player: i)
                        } catch {
                            failures.withLock { $0.append("\(i): \(error)") }
                        }
                    }
                }
                done.resume()
            }
        }
        let failed = failures.withLock { $0 }
        if !failed.isEmpty || count < tokens.count {
            throw LoadError.refused("only \(count) of \(tokens.count) WebSockets opened; first failure: \(failed.first ?? "none")")
        }
    }

    /// One connection: the upgrade request and its reply with blocking calls, then the
    /// socket goes to the reader, non-blocking.
    private func open(port: Int, path: String, token: String, player: Int) throws {
        let fd = try LoopbackSocket.connect(port: port)
        let request = Array(
            ("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer \(token)\r\n\r\n").utf8)
        guard LoopbackSocket.writeAll(fd, request) else {
            close(fd)
            throw LoadError.refused("the upgrade request could not be sent")
        }
        // The reply's head; whatever follows it (the game's first state) is the reader's.
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let end = Marker("\r\n\r\n")
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                close(fd)
                throw LoadError.refused("the connection closed before the upgrade's reply")
            }
            reply += chunk[..<n]
            if let headEnd = reply.withUnsafeBytes({ end.offset(in: $0) }) {
                // RFC 6455's sample key has this accept value (section 1.3).
                let head = String(decoding: reply[..<headEnd], as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 101"), head.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") else {
                    close(fd)
                    throw LoadError.refused("not upgraded: \(head.prefix(80))")
                }
                reply.removeFirst(headEnd + end.bytes.count)
                break
            }
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        arrivals.withLock { $0.append((fd, player, reply)) }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        guard epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event) == 0 else { throw LoadError.refused("epoll_ctl: \(String(cString: strerror(errno)))") }
        state.withLock { $0.opened += 1 }
    }

    /// The reader's thread: every connection's bytes, as they come, for as long as the
    /// process runs.
    private func read() {
        var connections: [Int32: WebSocketReader] = [:]
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let ready = epoll_wait(poller, &events, Int32(events.count), 1000)
            // Taken after the wait: a connection's first event comes after it was listed.
            let arrived = arrivals.withLock { list in
                defer { list = [] }
                return list
            }
            for arrival in arrived {
                var connection = WebSocketReader(player: arrival.player)
                let open = arrival.leftover.withUnsafeBytes { take($0, into: &connection, fd: arrival.fd) }
                if open { connections[arrival.fd] = connection } else { close(arrival.fd) }
            }
            guard ready > 0 else { continue }
            for event in events.prefix(Int(ready)) {
                let fd = event.data.fd
                guard var connection = connections.removeValue(forKey: fd) else { continue }
                var open = true
                while open {
                    let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if n > 0 {
                        open = buffer.withUnsafeBytes { take(UnsafeRawBufferPointer(rebasing: $0[..<n]), into: &connection, fd: fd) }
                        // A read that did not fill the buffer most likely emptied the socket:
                        // the next read would only say EAGAIN. Whatever arrives later, the
                        // level-triggered epoll reports again (one syscall a message, not two).
                        if n < buffer.count { break }
                    } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                        open = false
                    } else {
                        break
                    }
                }
                if open { connections[fd] = connection } else { close(fd) }
            }
        }
    }

    private func take(_ bytes: UnsafeRawBufferPointer, into connection: inout WebSocketReader, fd: Int32) -> Bool {
        let player = connection.player
        return connection.take(bytes) { output in
            switch output {
            case .message(let message): received(message, player: player)
            case .pong(let pong): _ = LoopbackSocket.writeAll(fd, pong)
            }
        }
    }

    /// From now on, count who sees a message containing `marker`, timed from `since`.
    func mark(_ marker: String, from since: ContinuousClock.Instant) {
        state.withLock {
            $0.marker = Marker(marker)
            $0.since = since
            $0.seen = Array(repeating: false, count: players)
            $0.seenCount = 0
            $0.latencies = []
        }
    }

    /// A whole text message for `player` (the host's index is `players`: not counted).
    private func received(_ message: UnsafeRawBufferPointer, player: Int) {
        guard player < players else { return }
        let now = ContinuousClock.now
        state.withLock {
            guard !$0.seen[player], let marker = $0.marker, marker.occurs(in: message) else { return }
            $0.seen[player] = true
            $0.seenCount += 1
            $0.latencies.append(ms(now - $0.since))
            $0.markedSize = message.count
        }
    }

    /// Waits for every player to have seen what `mark` asked for.
    func waitUntilAll(see marker: String, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ $0.seenCount }) < players {
            if ContinuousClock.now > deadline {
                throw LoadError.refused("only \(state.withLock { $0.seenCount }) of \(players) players saw \(marker)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func latencies() -> [Double] { state.withLock { $0.latencies } }
}

/// A marker looked for in every message that lands, and the end of the upgrade reply's
/// head (Boyer-Moore-Horspool: it steps over
/// most of a message's bytes). A search for its first byte with memchr, then memcmp,
/// stopped at each of the hundreds of quotes of a JSON message: 13% of the machine's time
/// during a reveal.
struct Marker {
    let bytes: [UInt8]
    /// How far the search may move on when a window ends with a given byte.
    private let skip: [Int]

    init(_ text: String) {
        bytes = Array(text.utf8)
        var skip = [Int](repeating: bytes.count, count: 256)
        for (i, byte) in bytes.enumerated().dropLast() { skip[Int(byte)] = bytes.count - 1 - i }
        self.skip = skip
    }

    func occurs(in haystack: UnsafeRawBufferPointer) -> Bool { offset(in: haystack) != nil }

    /// Where the marker first starts in `haystack`.
    func offset(in haystack: UnsafeRawBufferPointer) -> Int? {
        let m = bytes.count
        guard m > 0, m <= haystack.count, let base = haystack.baseAddress else { return nil }
        return bytes.withUnsafeBytes { needle in
            guard let needleBase = needle.baseAddress else { return nil }
            let lastByte = needle[m - 1]
            var at = 0
            while at <= haystack.count - m {
                let last = haystack[at + m - 1]
                if last == lastByte, memcmp(base + at, needleBase, m) == 0 { return at }
                at += skip[Int(last)]
            }
            return nil
        }
    }
}
