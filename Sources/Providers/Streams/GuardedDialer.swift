import NIOCore
import NIOPosix
import NIOSSL

/// Opens a connection to a target on the internet, and only there: the host's addresses are
/// looked up here, those `NetworkAddressPolicy` refuses are dropped, and the connection is made
/// to an address that was checked (no DNS rebinding between check and use). TLS with the
/// system's trusted certificates for https; a connection silent for the idle limit closes.
/// The radio relay's: a station's answer is not always HTTP ("ICY 200 OK") and never ends,
/// which an HTTP client does not take; the web fetcher goes through AsyncHTTPClient.
struct GuardedDialer: Sendable {
    let allowPrivateNetworks: Bool
    let connectTimeout: TimeAmount
    let idleTimeout: TimeAmount

    func open(_ target: StreamTarget) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        let addresses = try await AddressGuard(allowPrivateNetworks: allowPrivateNetworks).allowedAddresses(host: target.host, port: target.port)
        return try await connect(to: addresses, target: target)
    }

    private func connect(to addresses: [ResolvedAddresses.Address], target: StreamTarget) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        var failures: [String] = []
        for address in addresses.prefix(4) {
            do {
                let tls = try target.isTLS ? Self.tlsContext.get() : nil
                let idle = idleTimeout
                return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connectTimeout(connectTimeout)
                    .connect(to: address.socket) { channel in
                        channel.eventLoop.makeCompletedFuture {
                            if let tls {
                                let handler = try NIOSSLClientHandler(context: tls, serverHostname: target.isIPLiteral ? nil : target.host)
                                try channel.pipeline.syncOperations.addHandler(handler)
                            }
                            try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: idle))
                            try channel.pipeline.syncOperations.addHandler(CloseWhenIdle())
                            return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                        }
                    }
            } catch {
                failures.append("\(address.socket): \(error)")
            }
        }
        throw StreamRelayError.unreachable("could not connect to \(target.host): \(failures.joined(separator: "; "))")
    }

    /// One TLS setup for every connection, with the system's trusted certificates.
    static let tlsContext = Result { try NIOSSLContext(configuration: .makeClientConfiguration()) }
}
