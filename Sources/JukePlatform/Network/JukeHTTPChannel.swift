import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Juke's HTTP/1 connections: Hummingbird's HTTP with WebSocket upgrades, with the
/// `ConnectionGuard` right after the request decoder, and the keep-alive idle timeout set.
struct JukeHTTPChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let inner: HTTP1WebSocketUpgradeChannel
    let headTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(ConnectionGuard(headTimeout: headTimeout), position: .after(decoder))
            return value
        }
    }

    /// A WebSocket is closed when the server shuts down: it never ends by itself, and
    /// Hummingbird's graceful shutdown waits for every connection (one open game kept
    /// `juke serve` running after SIGTERM until its client left). HTTP connections are left to
    /// Hummingbird, which lets the requests in flight finish. A connection is a WebSocket once
    /// the upgrade has taken the HTTP decoder out of its pipeline.
    func handle(value: Value, logger: Logger) async {
        let channel = value.channel
        await withGracefulShutdownHandler {
            await inner.handle(value: value, logger: logger)
        } onGracefulShutdown: {
            channel.eventLoop.execute {
                let isHTTP = (try? channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)) != nil
                if !isHTTP { channel.close(promise: nil) }
            }
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with WebSocket upgrades answered by `router`, guarded by `ConnectionGuard`.
    /// `idleTimeout`: how long a kept-alive connection may sit between requests once its
    /// first request has been answered; `headTimeout`: how long a request head may take.
    static func juke<Router: HTTPResponderBuilder>(webSocketRouter router: Router, idleTimeout: Duration, headTimeout: Duration) -> HTTPServerBuilder
    where Router.Responder.Context == JukeRequestContext {
        let webSocketResponder = UpgradeRefusalRecorder(inner: router.buildResponder())
        return HTTPServerBuilder { responder in
            JukeHTTPChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(http1: .init(idleTimeout: TimeAmount(idleTimeout)), ws: .init())),
                headTimeout: TimeAmount(headTimeout))
        }
    }
}

/// Asks the router whether to upgrade, as Hummingbird does, and tells the connection's
/// `ConnectionGuard` the status of a refusal, which Hummingbird would answer 400.
struct UpgradeRefusalRecorder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == JukeRequestContext {
    typealias Context = JukeRequestContext
    let inner: Inner

    func respond(to request: Request, context: Context) async throws -> Response {
        let response = try await inner.respond(to: request, context: context)
        if response.status != .ok {
            context.channel.pipeline.fireUserInboundEventTriggered(ConnectionGuard.UpgradeRefused(status: response.status.code))
        }
        return response
    }
}
