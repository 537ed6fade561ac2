import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context: Hummingbird's core storage, the peer's address for rate limits,
/// the slot a WebSocket upgrade hands its handler through, and the connection's channel
/// (a live game writes its pushes straight onto it, from its event loop).
public struct JukeRequestContext: RequestContext, RemoteAddressRequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    public let webSocket: WebSocketHandlerReference<Self>
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.webSocket = .init()
        self.channel = source.channel
    }
}
