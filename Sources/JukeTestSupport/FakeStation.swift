public import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A local internet radio station on raw TCP, for the relay's tests: it answers what real
/// stream servers answer, including what web frameworks cannot (SHOUTcast's "ICY 200 OK"
/// status line), at the pace of a live stream.
///
/// Paths: `/live.mp3` (MPEG audio at `bytesPerSecond`, ICY metadata every 1000 bytes when asked,
/// the title `Artist N - Song N` changing every `titleEvery` writes), `/icy.mp3` (the same with
/// an ICY status line), `/chunked.mp3` (chunked coding), `/page.html` (an HTML error page
/// served 200), `/list.pls` (a playlist naming /live.mp3), `/moved` (302 to /live.mp3),
/// `/hls.m3u8` (an HLS playlist), `/gone` (404), `/file.ogg` (the bytes given as `ogg`, paced).
public final class FakeStation: Sendable {
    public let port: Int
    private let channel: any Channel
    /// Requests seen: (path, headers lower-cased).
    public let requests = Mutex<[(path: String, headers: [String: String])]>([])
    /// Connections to /live.mp3 and /icy.mp3 open now.
    public let openStreams = Atomic<Int>(0)

    public struct Options: Sendable {
        public var bytesPerSecond = 16_000
        public var writesPerSecond = 8
        public var titleEvery = 8
        public var ogg: [UInt8] = []
        public init() {}
    }

    public static func start(_ options: Options = Options()) async throws -> FakeStation {
        let holder = Mutex<FakeStation?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(
                        StationConnection(options: options, station: { holder.withLock { $0 } }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let station = FakeStation(port: channel.localAddress?.port ?? 0, channel: channel)
        holder.withLock { $0 = station }
        return station
    }

    private init(port: Int, channel: any Channel) {
        self.port = port
        self.channel = channel
    }

    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    public func stop() async {
        try? await channel.close()
    }

    /// MPEG-1 layer III frame headers (128 kbit/s, 44.1 kHz) padded to frame length: what
    /// the relay sniffs as MPEG audio.
    public static func mpegBytes(_ count: Int, from offset: Int) -> [UInt8] {
        let frame = 417
        return (0..<count).map { index in
            let at = (offset + index) % frame
            switch at {
            case 0: return 0xFF
            case 1: return 0xFB
            case 2: return 0x90
            case 3: return 0x64
            default: return UInt8(truncatingIfNeeded: at)
            }
        }
    }
}

/// One listener's connection to the fake station.
private final class StationConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let options: FakeStation.Options
    let station: @Sendable () -> FakeStation?
    var request: [UInt8] = []
    var answered = false
    var timer: RepeatedTask?
    var sent = 0
    var writes = 0

    init(options: FakeStation.Options, station: @escaping @Sendable () -> FakeStation?) {
        self.options = options
        self.station = station
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        request += Array(unwrapInboundIn(data).readableBytesView)
        guard let end = String(decoding: request, as: UTF8.self).range(of: "\r\n\r\n") else { return }
        answered = true
        let text = String(String(decoding: request, as: UTF8.self)[..<end.lowerBound])
        var lines = text.components(separatedBy: "\r\n")
        let path = lines.removeFirst().split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        station()?.requests.withLock { $0.append((path, headers)) }
        answer(path: path, icy: headers["icy-metadata"] == "1", context: context)
    }

    func answer(path: String, icy: Bool, context: ChannelHandlerContext) {
        let port = station()?.port ?? 0
        func send(_ text: String, close: Bool) {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
            if close { context.close(promise: nil) }
        }
        switch path {
        case "/page.html":
            send("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 44\r\n\r\n<html><body>Station offline</body></html>\r\n", close: true)
        case "/list.pls":
            let body = "[playlist]\nNumberOfEntries=1\nFile1=http://127.0.0.1:\(port)/live.mp3\nTitle1=Test\n"
            send("HTTP/1.1 200 OK\r\nContent-Type: audio/x-scpls\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)", close: true)
        case "/moved":
            send("HTTP/1.1 302 Found\r\nLocation: /live.mp3\r\nContent-Length: 0\r\n\r\n", close: true)
        case "/hls.m3u8":
            // A master playlist naming a media playlist, which names a key and two segments.
            let body = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS=\"mp4a.40.2\"\naudio/live.m3u8\n"
            send("HTTP/1.1 200 OK\r\nContent-Type: application/vnd.apple.mpegurl\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)", close: true)
        case "/audio/live.m3u8":
            let body =
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"/keys/k1\"\n#EXTINF:6.0,\nseg1.aac\n"
                + "#EXTINF:6.0,\nhttp://127.0.0.1:\(port)/audio/seg2.aac\n"
            send("HTTP/1.1 200 OK\r\nContent-Type: application/vnd.apple.mpegurl\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)", close: true)
        case "/audio/seg1.aac", "/audio/seg2.aac":
            let adts: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC] + [UInt8](repeating: 0x21, count: 9)
            let head = "HTTP/1.1 200 OK\r\nContent-Type: audio/aac\r\nContent-Length: \(adts.count)\r\n\r\n"
            var out = ByteBuffer(string: head)
            out.writeBytes(adts)
            context.writeAndFlush(wrapOutboundOut(out), promise: nil)
            context.close(promise: nil)
        case "/live.mp3", "/icy.mp3", "/chunked.mp3", "/file.ogg":
            let chunked = path == "/chunked.mp3"
            let metaint = icy && path != "/file.ogg" ? 1000 : 0
            var head = path == "/icy.mp3" ? "ICY 200 OK\r\nicy-name:Test FM\r\n" : "HTTP/1.1 200 OK\r\nicy-name: Test FM\r\n"
            head += path == "/file.ogg" ? "Content-Type: application/ogg\r\n" : "Content-Type: audio/mpeg\r\n"
            if metaint > 0 { head += "icy-metaint: \(metaint)\r\n" }
            if chunked { head += "Transfer-Encoding: chunked\r\n" }
            send(head + "\r\n", close: false)
            station()?.openStreams.add(1, ordering: .relaxed)
            let perWrite = max(1, options.bytesPerSecond / options.writesPerSecond)
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(Int64(1000 / options.writesPerSecond))) {
                [self] _ in
                let context = loopBound.value
                var audio: [UInt8]
                if path == "/file.ogg" {
                    guard sent < options.ogg.count else {
                        context.close(promise: nil)
                        return
                    }
                    audio = Array(options.ogg[sent..<min(options.ogg.count, sent + perWrite)])
                } else {
                    audio = FakeStation.mpegBytes(perWrite, from: sent)
                }
                var out = ByteBuffer()
                if metaint > 0 {
                    // Metadata after every `metaint` audio bytes, counted across writes.
                    var index = 0
                    while index < audio.count {
                        let untilMeta = metaint - (sent % metaint)
                        let take = min(untilMeta, audio.count - index)
                        out.writeBytes(audio[index..<(index + take)])
                        sent += take
                        index += take
                        if sent % metaint == 0 {
                            let number = writes / options.titleEvery + 1
                            var block = Array("StreamTitle='Artist \(number) - Song \(number)';".utf8)
                            block += [UInt8](repeating: 0, count: (16 - block.count % 16) % 16)
                            out.writeInteger(UInt8(block.count / 16))
                            out.writeBytes(block)
                        }
                    }
                } else {
                    out.writeBytes(audio)
                    sent += audio.count
                }
                writes += 1
                if chunked {
                    var framed = ByteBuffer(string: String(out.readableBytes, radix: 16) + "\r\n")
                    framed.writeBuffer(&out)
                    framed.writeString("\r\n")
                    out = framed
                }
                context.writeAndFlush(NIOAny(out), promise: nil)
            }
        default:
            send("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", close: true)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if timer != nil { station()?.openStreams.subtract(1, ordering: .relaxed) }
        timer?.cancel()
        timer = nil
    }
}
