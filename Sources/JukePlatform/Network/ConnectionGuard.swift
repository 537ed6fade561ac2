import Foundation
import NIOCore
import NIOHTTP1

/// Watches each HTTP connection just after the request decoder, where the library leaves
/// three gaps:
///
/// - A malformed request (a garbage request line, an unknown method, NUL in a header) got
///   no answer and its connection stayed open: it now gets 400, a header section over the
///   decoder's limit 431, and the connection closes (after a lingering moment).
/// - A connection that never finishes a request head (slowloris: one header byte every
///   few seconds, or nothing at all) was kept forever: a request head must be complete
///   within `headTimeout` of the connection opening or the previous response ending.
///   Requests being answered (a radio stream, live events) are never cut.
/// - A refused WebSocket upgrade is always written as 400 by Hummingbird: the status the
///   route refused it with (401, 403, 404) arrives as an `UpgradeRefused` event first and
///   replaces it.
/// - A client that goes while live events stream to it (a page closed, its `EventSource`
///   closed) was noticed only when a later write failed: up to two heartbeats, 30 s, in which
///   a playing page that had gone still counted as playing. The end of its side of the
///   connection now closes the connection, which ends the stream (`EventStreamMiddleware`).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A route refused an upgrade with this status (sent by `UpgradeRefusalRecorder`).
    struct UpgradeRefused: Sendable {
        let status: Int
    }

    private let headTimeout: TimeAmount
    /// Requests whose head has arrived and whose response has not ended.
    private var open = 0
    /// A response head is written and its end is not.
    private var responding = false
    /// That response is a stream of server-sent events.
    private var streamingEvents = false
    private var refusedUpgrade: HTTPResponseStatus?
    /// The connection became a WebSocket: frames, not HTTP parts, pass from then on.
    private var upgraded = false
    /// A malformed request has been answered; the connection is closing.
    private var answeredMalformed = false
    private var deadline: Scheduled<Void>?

    init(headTimeout: TimeAmount) {
        self.headTimeout = headTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if upgraded { return context.fireChannelRead(data) }
        if case .head = unwrapInboundIn(data) {
            open += 1
            disarm()
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let refused = event as? UpgradeRefused {
            refusedUpgrade = HTTPResponseStatus(statusCode: refused.status)
            return
        }
        context.fireUserInboundEventTriggered(event)
        // An event stream's client never half-closes to read on: its end means it has gone.
        if !upgraded, streamingEvents, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if upgraded { return context.write(data, promise: promise) }
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if head.status == .switchingProtocols {
                // The connection is a WebSocket from here on: what passes is not HTTP.
                upgraded = true
                disarm()
            }
            if head.status.code < 200 { break }  // 1xx: the real answer follows
            responding = true
            streamingEvents = head.headers.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true
            if head.status == .badRequest, let refused = refusedUpgrade {
                refusedUpgrade = nil
                head.status = refused
                if refused == .unauthorized { head.headers.replaceOrAdd(name: "WWW-Authenticate", value: "Bearer") }
                context.write(wrapOutboundOut(.head(head)), promise: promise)
                return
            }
        case .body:
            break
        case .end:
            responding = false
            streamingEvents = false
            open = max(0, open - 1)
            if open == 0, !answeredMalformed { arm(context) }
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if upgraded { return context.fireErrorCaught(error) }
        if answeredMalformed, error is ByteToMessageDecoderError { return }  // what follows the bad request
        guard let parserError = error as? HTTPParserError, !responding, !answeredMalformed else {
            context.fireErrorCaught(error)
            return
        }
        answeredMalformed = true
        let tooLarge = parserError == .headerOverflow
        let message =
            tooLarge
            ? #"{"error":"headers_too_large","message":"The request's headers are too large."}"#
            : #"{"error":"bad_request","message":"The request is not valid HTTP."}"#
        var buffer = context.channel.allocator.buffer(capacity: message.utf8.count)
        buffer.writeString(message)
        let headers = HTTPHeaders([
            ("Connection", "close"), ("Content-Type", "application/json; charset=utf-8"), ("Content-Length", String(buffer.readableBytes)),
        ])
        let status: HTTPResponseStatus = tooLarge ? .requestHeaderFieldsTooLarge : .badRequest
        disarm()
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        // A lingering close: the answer is followed by the end of our side, and what the
        // client still sends is read and dropped for a moment. Closing at once with its
        // bytes unread would reset the connection, and the client could lose the answer.
        context.close(mode: .output, promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: .seconds(2)) { loopBound.value.close(promise: nil) }
    }

    private func arm(_ context: ChannelHandlerContext) {
        disarm()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: headTimeout) { loopBound.value.close(promise: nil) }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}
