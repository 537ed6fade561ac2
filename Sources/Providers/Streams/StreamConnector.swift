public import Foundation
public import MediaFormats
import NIOCore
import NIOPosix
import NIOSSL

/// A radio stream, opened: where it ended up (after redirects and playlists), what it is,
/// and its answer's head (the station's `icy-*` headers).
public struct StreamOpening: Sendable {
    public let url: URL
    public let kind: StreamKind
    public let head: StreamResponseHead

    /// The station's name as its server gives it.
    public var stationName: String? { head.headers["icy-name"] }
}

/// A bounded resource read whole: where it ended up, its declared type, its bytes.
public struct FetchedResource: Sendable {
    public let url: URL
    public let contentType: String?
    public let body: [UInt8]
}

/// What a stream's body carries, in order: audio bytes, and the ICY title when it changes.
public enum StreamPart: Sendable, Equatable {
    case audio([UInt8])
    case title(String?)
}

/// How a stream ended.
public enum StreamEnd: Sendable, Equatable {
    /// The station closed the stream, or fell silent for longer than the idle limit.
    case closed
    /// The address is an HLS playlist: its segments are fetched one by one, not streamed.
    case hlsPlaylist(URL, [UInt8])
}

/// Opens internet radio streams for the relay, on SwiftNIO directly rather than an HTTP client,
/// for three reasons: the address checked against `NetworkAddressPolicy` is the address
/// connected to (no DNS rebinding between check and use); SHOUTcast v1 answers
/// "ICY 200 OK", which HTTP clients refuse; and the body arrives as it comes, never whole.
///
/// Redirects and PLS/M3U playlists are followed (at most five hops, each checked). The
/// request asks for ICY metadata, which is taken out of the audio and reported as titles;
/// chunked coding is undone. An answer that is not audio is refused before any of it is
/// passed on.
public struct StreamConnector: Sendable {
    public let allowPrivateNetworks: Bool
    let userAgent: String
    let connectTimeout: TimeAmount
    let idleTimeout: TimeAmount
    static let maximumHops = 5
    var dialer: GuardedDialer { GuardedDialer(allowPrivateNetworks: allowPrivateNetworks, connectTimeout: connectTimeout, idleTimeout: idleTimeout) }
    /// Bytes looked at to tell audio from an error page.
    static let sniffBytes = 512

    public init(
        allowPrivateNetworks: Bool = false, userAgent: String = "Juke/1.0 (self-hosted music server; Dual Player radio relay)",
        connectTimeout: Duration = .seconds(8), idleTimeout: Duration = .seconds(20)
    ) {
        self.allowPrivateNetworks = allowPrivateNetworks
        self.userAgent = userAgent
        self.connectTimeout = TimeAmount(connectTimeout)
        self.idleTimeout = TimeAmount(idleTimeout)
    }

    /// Opens `url`, calls `opened` once the answer is known to be audio, then `received`
    /// with each part of the body until the station closes the stream or the task is
    /// cancelled. Errors before `opened` are `StreamRelayError`s; errors thrown by the two
    /// closures end the stream and are rethrown.
    public func stream(
        _ url: URL, opened: @Sendable (StreamOpening) async throws -> Void, received: @Sendable ([StreamPart]) async throws -> Void
    ) async throws -> StreamEnd {
        var current = url
        for _ in 0...Self.maximumHops {
            let target = try StreamTarget(current)
            let channel = try await dialer.open(target)
            let outcome = try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: target.request(userAgent: userAgent)))
                var reader = StreamReader(iterator: inbound.makeAsyncIterator())
                return try await read(from: &reader, target: target, opened: opened, received: received)
            }
            switch outcome {
            case .next(let url): current = url
            case .end(let end): return end
            }
        }
        throw StreamRelayError.tooManyHops
    }

    enum Outcome {
        case next(URL)
        case end(StreamEnd)
    }

    /// A bounded resource (an HLS playlist or segment), read whole: the same address checks and
    /// redirects as a stream, no ICY, at most `limit` bytes.
    public func fetch(_ url: URL, limit: Int) async throws -> FetchedResource {
        var current = url
        for _ in 0...Self.maximumHops {
            let target = try StreamTarget(current)
            let channel = try await dialer.open(target)
            let outcome: FetchOutcome = try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: target.request(userAgent: userAgent, icy: false)))
                var reader = StreamReader(iterator: inbound.makeAsyncIterator())
                let (head, pending, length) = try await reader.head(from: target.host)
                if [301, 302, 303, 307, 308].contains(head.status) {
                    guard let location = head.headers["location"], let next = URL(string: location, relativeTo: target.url)?.absoluteURL else {
                        throw StreamRelayError.malformed("a redirect without a Location")
                    }
                    return .next(next)
                }
                guard head.status == 200 else { throw StreamRelayError.status(head.status) }
                let declared = head.headers["content-length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                if let declared, declared > limit { throw StreamRelayError.malformed("the answer is larger than \(limit) bytes") }
                var decoder = StreamBodyDecoder(head: head)
                var body = try decoder.feed(Array(pending[length...])).audioBytes
                while !decoder.isFinished, body.count < (declared ?? Int.max), let bytes = try await reader.next() {
                    body += try decoder.feed(bytes).audioBytes
                    if body.count > limit { throw StreamRelayError.malformed("the answer is larger than \(limit) bytes") }
                }
                return .done(FetchedResource(url: target.url, contentType: head.contentType, body: body))
            }
            switch outcome {
            case .next(let url): current = url
            case .done(let resource): return resource
            }
        }
        throw StreamRelayError.tooManyHops
    }

    enum FetchOutcome {
        case next(URL)
        case done(FetchedResource)
    }

    /// The head, then either the next address (redirect, playlist) or the audio itself.
    private func read(
        from reader: inout StreamReader, target: StreamTarget, opened: @Sendable (StreamOpening) async throws -> Void,
        received: @Sendable ([StreamPart]) async throws -> Void
    ) async throws -> Outcome {
        let (head, pending, length) = try await reader.head(from: target.host, silence: " (or sent nothing for \(idleTimeout.seconds) s)")
        if [301, 302, 303, 307, 308].contains(head.status) {
            guard let location = head.headers["location"], let next = URL(string: location, relativeTo: target.url)?.absoluteURL else {
                throw StreamRelayError.malformed("a redirect without a Location")
            }
            return .next(next)
        }
        guard head.status == 200 else { throw StreamRelayError.status(head.status) }
        var decoder = StreamBodyDecoder(head: head)
        var first: [StreamPart] = try decoder.feed(Array(pending[length...]))
        var firstAudio = first.audioBytes
        while firstAudio.count < Self.sniffBytes, !decoder.isFinished, let bytes = try await reader.next() {
            let parts = try decoder.feed(bytes)
            first += parts
            firstAudio += parts.audioBytes
            if firstAudio.count > 64 * 1024 { break }
        }
        let kind = StreamKind.sniff(contentType: head.contentType, firstBytes: firstAudio[...])
        switch kind {
        case .notAudio:
            throw StreamRelayError.notAudio(head.contentType ?? "an answer with no type")
        case .playlist, .hls:
            // Short text: read it whole (bounded), then follow it.
            var body = firstAudio
            while body.count < 64 * 1024, !decoder.isFinished, let bytes = try await reader.next() { body += try decoder.feed(bytes).audioBytes }
            if kind == .hls { return .end(.hlsPlaylist(target.url, body)) }
            guard let next = StationPlaylist.streams(in: body[...]).first.flatMap(URL.init(string:)) else {
                throw StreamRelayError.notAudio("a playlist naming no stream")
            }
            return .next(next)
        case .mpeg, .aac, .ogg, .flac:
            try await opened(StreamOpening(url: target.url, kind: kind, head: head))
            if !first.isEmpty { try await received(first) }
            while !decoder.isFinished, let bytes = try await reader.next() {
                let parts = try decoder.feed(bytes)
                if !parts.isEmpty { try await received(parts) }
            }
            return .end(.closed)
        }
    }

}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    var seconds: Int64 { nanoseconds / 1_000_000_000 }
}

/// The connection's bytes, one read at a time; the end of a TLS stream without its closing
/// message (common with stream servers) counts as the end.
struct StreamReader {
    var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator

    mutating func next() async throws -> [UInt8]? {
        do {
            guard let buffer = try await iterator.next() else { return nil }
            return Array(buffer.readableBytesView)
        } catch NIOSSLError.uncleanShutdown {
            return nil
        } catch let error as StreamRelayError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw StreamRelayError.unreachable("the connection failed: \(error)")
        }
    }
}

extension StreamReader {
    /// The answer's head: what was read up to it and past it (`bytes[length...]` is the body's
    /// start), or why there is none.
    mutating func head(from host: String, silence: String = "") async throws -> (head: StreamResponseHead, bytes: [UInt8], length: Int) {
        var pending: [UInt8] = []
        while true {
            guard let bytes = try await next() else { throw StreamRelayError.unreachable("\(host) closed the connection before answering\(silence)") }
            pending += bytes
            do {
                if let (head, length) = try StreamResponseHead.parse(pending[...]) { return (head, pending, length) }
            } catch {
                throw StreamRelayError.malformed(error.message)
            }
        }
    }
}

/// Closes a connection that has been silent for the idle limit: its reader then sees the
/// end, as when the station hangs up.
final class CloseWhenIdle: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}

extension [StreamPart] {
    var audioBytes: [UInt8] {
        var bytes: [UInt8] = []
        for case .audio(let audio) in self { bytes += audio }
        return bytes
    }
}
