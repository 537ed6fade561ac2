import AsyncHTTPClient
import NIOCore

extension HTTPClient {
    /// A client for one request under the private-network guard (`WebFetcher`): a request for
    /// `host` connects to `address`, an IP address the guard checked, and to nothing else. No
    /// second lookup happens between the check and the connection, so a name cannot answer a
    /// public address to the check and a private one to the connection (DNS rebinding). The
    /// name stays the request's: TLS asks for it (SNI) and checks the certificate against it,
    /// and it is the Host header. (AsyncHTTPClient's `dnsOverride`, which does this, is a
    /// setting of a whole client, hence a client per request, on the shared event loops.)
    ///
    /// `address` nil: `host` is itself an IP address (AsyncHTTPClient then connects to it
    /// without a lookup). Redirects are not followed; a refused connection fails at once. The
    /// caller shuts the client down when its request is done.
    func pinned(host: String, to address: String?, connectTimeout: TimeAmount, readTimeout: TimeAmount) throws(TransportError)
        -> AsyncHTTPClient.HTTPClient
    {
        try owner.pinned(timeout: .init(connect: connectTimeout, read: readTimeout), dnsOverride: address.map { [host: $0] } ?? [:])
    }
}
