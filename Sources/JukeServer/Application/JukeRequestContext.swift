import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context: Hummingbird's core storage, the peer's address for rate limits,
/// and the slot a WebSocket upgrade hands its handler through.
public struct JukeRequestContext: RequestContext, RemoteAddressRequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    public let webSocket: WebSocketHandlerReference<Self>

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.webSocket = .init()
    }
}
