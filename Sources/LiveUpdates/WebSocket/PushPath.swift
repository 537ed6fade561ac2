import NIOCore

/// How a live connection's pushed messages reach the kernel. The push handler asks `socket`
/// once the channel is active: a socket to send to directly, or nil for the pipeline alone.
public enum PushPath: String, Sendable, CaseIterable {
    /// Through SwiftNIO's pipeline, pending-writes queue and writev(2), as any write: works
    /// whatever stands between the handler and the socket (TLS included).
    case pipeline
    /// Straight to the socket with one non-blocking sendmsg(2) whenever SwiftNIO has
    /// nothing of the connection queued, through the pipeline otherwise. A reveal to ten
    /// thousand players reached them sooner this way (docs/PERFORMANCE.md). It requires that
    /// nothing between the handler and the socket transforms the bytes: plain HTTP, with
    /// TLS ended at a proxy in front of Juke.
    case direct

    /// What the load benchmark measured better.
    public static let `default` = PushPath.direct

    /// The socket a handler may send to directly on this path; call on the channel's event loop.
    public func socket(of pipeline: ChannelPipeline) -> SocketSend? {
        switch self {
        case .pipeline: nil
        case .direct: SocketSend.of(pipeline)
        }
    }
}
