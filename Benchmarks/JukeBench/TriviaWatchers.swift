import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// The players' WebSockets: how many have seen a given state, and when.
///
/// The load client shares the machine's two cores with the server it measures, so it takes
/// as little of them as a WebSocket client can: one thread for all the connections, and a
/// handler per connection that looks for a marker in each message's bytes where it lands,
/// with no task, stream or string per message. (Its first version, a WebSocket client task
/// per player, took most of a core at a reveal: CPU the server under test then lacked.)
final class Watchers: Sendable {
    private struct State {
        var seen: [Bool]
        var seenCount = 0
        var marker: [UInt8] = []
        var since: ContinuousClock.Instant = .now
        var latencies: [Double] = []
        var opened = 0
        /// The size of the last message that had the marker (for the loopback floor).
        var markedSize = 0
    }

    private let state: Mutex<State>
    let players: Int
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    var count: Int { state.withLock { $0.opened } }
    /// How long the last message with the marker was, in bytes.
    var markedSize: Int { state.withLock { $0.markedSize } }

    init(count: Int) {
        players = count
        state = Mutex(State(seen: Array(repeating: false, count: count)))
    }

    /// Opens a WebSocket for each token (the players', then the host's, which is not
    /// counted), in waves as phones scanning a code would arrive.
    func connect(port: Int, session: String, tokens: [String]) async throws {
        let path = "/api/v1/tunetrivia/sessions/\(session)/ws"
        for wave in stride(from: 0, to: tokens.count, by: 250) {
            try await withThrowingTaskGroup(of: Void.self) { connections in
                for i in wave..<min(wave + 250, tokens.count) {
                    connections.addTask { try await self.open(port: port, path: path, token: tokens[i], player: i) }
                }
                try await connections.waitForAll()
            }
        }
        if count < tokens.count { throw LoadError.refused("only \(count) of \(tokens.count) WebSockets opened") }
    }

    private func open(port: Int, path: String, token: String, player: Int) async throws {
        let upgraded: EventLoopFuture<Bool> = try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Bool>(
                        maxFrameSize: 1 << 24,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(WatchHandler(player: player, watchers: self))
                                self.opened()
                                return true
                            }
                        })
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "127.0.0.1:\(port)")
                    headers.add(name: "Authorization", value: "Bearer \(token)")
                    headers.add(name: "Content-Length", value: "0")
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<Bool>(
                        upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers),
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { false } })
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: configuration))
                }
            }
        if try await !upgraded.get() {
            throw LoadError.refused("WebSocket \(player) was not upgraded")
        }
    }

    /// From now on, count who sees a message containing `marker`, timed from `since`.
    func mark(_ marker: String, from since: ContinuousClock.Instant) {
        state.withLock {
            $0.marker = Array(marker.utf8)
            $0.since = since
            $0.seen = Array(repeating: false, count: players)
            $0.seenCount = 0
            $0.latencies = []
        }
    }

    private func opened() { state.withLock { $0.opened += 1 } }

    /// A whole text message for `player` (the host's index is `players`: not counted).
    fileprivate func received(_ message: ByteBuffer, player: Int) {
        guard player < players else { return }
        let now = ContinuousClock.now
        state.withLock {
            guard !$0.seen[player], !$0.marker.isEmpty else { return }
            guard Self.contains(message, $0.marker) else { return }
            $0.seen[player] = true
            $0.seenCount += 1
            $0.latencies.append(ms(now - $0.since))
            $0.markedSize = message.readableBytes
        }
    }

    /// A plain byte search (memchr for the first byte, then memcmp): cheap, since the
    /// client's CPU is taken from the server under test.
    static func contains(_ message: ByteBuffer, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return false }
        return message.withUnsafeReadableBytes { haystack in
            needle.withUnsafeBytes { needle in
                guard let base = haystack.baseAddress, let needleBase = needle.baseAddress, needle.count <= haystack.count else { return false }
                var offset = 0
                let last = haystack.count - needle.count
                while offset <= last {
                    guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return false }
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + at, needleBase, needle.count) == 0 { return true }
                    offset = at + 1
                }
                return false
            }
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

/// One player's connection after the upgrade: whole text messages go to the watchers;
/// pings are answered, as a browser does.
private final class WatchHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let player: Int
    private let watchers: Watchers
    /// A text message split over continuation frames, until its last.
    private var partial: ByteBuffer?
    private let trace = ProcessInfo.processInfo.environment["JUKE_LOAD_TRACE"] != nil

    init(player: Int, watchers: Watchers) {
        self.player = player
        self.watchers = watchers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .continuation:
            if frame.opcode == .text { partial = nil }
            var payload = frame.unmaskedData
            if !frame.fin || partial != nil {
                partial = partial ?? ByteBuffer()
                partial?.writeBuffer(&payload)
                guard frame.fin, let whole = partial else { return }
                payload = whole
                partial = nil
            }
            if trace, player == 0 { say("player 0 got: \(String(buffer: payload).prefix(600))") }
            watchers.received(payload, player: player)
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            context.close(promise: nil)
        default:
            break
        }
    }
}
