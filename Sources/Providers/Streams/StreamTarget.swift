import Foundation

/// A stream address taken apart for a connection: http(s) only, with a host, and the
/// request line and headers the relay sends.
struct StreamTarget: Sendable {
    let url: URL
    let host: String
    let port: Int
    let isTLS: Bool
    let pathAndQuery: String

    init(_ url: URL) throws(StreamRelayError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme)
        else { throw .invalidAddress("only http and https streams are relayed") }
        guard var host = components.host, !host.isEmpty else { throw .invalidAddress("the address has no host") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "/" || $0 == "@" }) else {
            throw .invalidAddress("the host has characters no host name has")
        }
        self.url = url
        self.host = host
        self.isTLS = scheme == "https"
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else { throw .invalidAddress("the port is not 1 to 65535") }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
        self.pathAndQuery = path + query
        guard !pathAndQuery.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F }) else {
            throw .invalidAddress("the path has characters a request line cannot carry")
        }
    }

    var isIPLiteral: Bool { host.contains(":") || host.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } }

    /// The request: ICY metadata asked for on a stream; the connection closes with the answer.
    /// `extra` are more headers (names and values already checked by the caller: no line breaks).
    func request(userAgent: String, icy: Bool = true, extra: [(String, String)] = []) -> String {
        let hostHeader = (host.contains(":") ? "[\(host)]" : host) + (port == (isTLS ? 443 : 80) ? "" : ":\(port)")
        let more = extra.filter { !$0.0.contains(where: \.isNewline) && !$0.1.contains(where: \.isNewline) }.map { "\($0.0): \($0.1)\r\n" }.joined()
        return "GET \(pathAndQuery) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: \(userAgent)\r\nAccept: */*\r\n"
            + (icy ? "Icy-MetaData: 1\r\n" : "") + more + "Connection: close\r\n\r\n"
    }
}
