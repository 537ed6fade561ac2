/// The private-network guard's first half, for every hop of the relay and of the web fetcher:
/// a host's addresses, looked up once, less those `NetworkAddressPolicy` refuses. The caller
/// then connects to one of these addresses and no other (the relay's `GuardedDialer` on
/// SwiftNIO, the web fetcher through AsyncHTTPClient pinned to it), so a name that answers a
/// public address here and a private one to a second lookup (DNS rebinding) never reaches
/// the private one.
struct AddressGuard: Sendable {
    let allowPrivateNetworks: Bool
    /// Which addresses may be connected to when private networks are not allowed: the
    /// policy's public addresses (tests widen it to their own loopback host).
    var isAllowed: @Sendable ([UInt8]) -> Bool = NetworkAddressPolicy.isPublic
    /// The lookup: the system resolver (tests answer names of their own).
    var resolve: @Sendable (_ host: String, _ port: Int) async throws(StreamRelayError) -> [ResolvedAddresses.Address] = {
        host, port throws(StreamRelayError) in
        try await ResolvedAddresses.resolve(host: host, port: port)
    }

    /// The host's addresses that the policy allows, in the resolver's order, or why none is.
    func allowedAddresses(host: String, port: Int) async throws(StreamRelayError) -> [ResolvedAddresses.Address] {
        let all = try await resolve(host, port)
        guard !all.isEmpty else { throw .unreachable("\(host) has no address") }
        if allowPrivateNetworks { return all }
        let allowed = all.filter { isAllowed($0.bytes) }
        guard !allowed.isEmpty else { throw .privateNetwork(host) }
        return allowed
    }
}
