import Foundation

/// Who is on the other end of a request and how they reached Juke, believing forwarding
/// headers only from the reverse proxies the admin named.
///
/// Behind a proxy every request comes from the proxy's address, so the sign-in limits would
/// lump all clients together; but X-Forwarded-For from anyone else is a lie anyone can tell
/// (a guesser would send a new address with every attempt). So the headers count only when
/// the socket's peer is a trusted proxy, and X-Forwarded-For is read from the right: each
/// trusted hop names the one before it, and the first address that is not a trusted proxy
/// is the client.
public struct ClientOrigin: Sendable {
    public let trustedProxies: [AddressRange]
    /// The address people use to reach Juke (`--public-url`), for links that leave the page.
    public let publicURL: URL?

    public init(trustedProxies: [AddressRange] = [], publicURL: URL? = nil) {
        self.trustedProxies = trustedProxies
        self.publicURL = publicURL
    }

    /// The public URL's "scheme://host[:port]", lower case, as a browser writes Origin.
    public var publicOrigin: String? {
        guard let publicURL, let scheme = publicURL.scheme?.lowercased(), let host = publicURL.host?.lowercased() else { return nil }
        let port = publicURL.port.map { ":\($0)" } ?? ""
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost)\(port)"
    }

    func isTrusted(_ address: String) -> Bool { trustedProxies.contains { $0.contains(address) } }

    /// The client's address: the peer's, or the one its trusted proxies forwarded.
    public func clientAddress(peer: String, forwardedFor: [String]) -> String {
        var hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        var client = peer
        while isTrusted(client), let previous = hops.popLast() {
            // A hop that is not an address: the last trusted proxy is all that is known.
            guard AddressRange.bytes(of: previous) != nil else { break }
            client = previous
        }
        return client
    }

    /// Whether the browser's connection is HTTPS: the public URL says so, or a trusted proxy
    /// that ended TLS says so in X-Forwarded-Proto (its first value is the client's side).
    public func isSecure(peer: String, forwardedProto: String?) -> Bool {
        if publicURL?.scheme?.lowercased() == "https" { return true }
        guard isTrusted(peer), let proto = forwardedProto?.split(separator: ",").first else { return false }
        return proto.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }

    /// "scheme://host[:port]" for links in files people take away (a playlist export): the
    /// public URL when configured, else the address and port this connection reached (never
    /// the Host header, which the client writes).
    public func linkOrigin(localAddress: String?, localPort: Int?, secure: Bool) -> String {
        if let publicOrigin { return publicOrigin }
        var host = localAddress ?? "127.0.0.1"
        if host.hasPrefix("::ffff:"), AddressRange.bytes(of: host)?.count == 4 { host = String(host.dropFirst(7)) }
        if host.contains(":") { host = "[\(host)]" }
        let scheme = secure ? "https" : "http"
        let defaultPort = secure ? 443 : 80
        let port = localPort.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)"
    }
}
