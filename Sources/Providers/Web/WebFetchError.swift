/// Why a page, feed or file could not be fetched, in words a person can act on.
public enum WebFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not an http(s) address with a host.
    case invalidAddress(String)
    /// The name resolves only to addresses inside a private or local network.
    case privateNetwork(String)
    /// DNS, the connection, TLS or the server's silence.
    case unreachable(String)
    case tooManyRedirects
    /// The answer is longer than the caller allows.
    case tooLarge(Int64)
    /// The answer broke HTTP or its framing.
    case malformed(String)

    public var description: String {
        switch self {
        case .invalidAddress(let why): "not a web address: \(why)"
        case .privateNetwork(let host): "\(host) is inside a private or local network, which Juke's server does not fetch from"
        case .unreachable(let why): why
        case .tooManyRedirects: "the address redirected too many times"
        case .tooLarge(let limit): "the answer is larger than \(limit / 1_000_000 > 0 ? "\(limit / 1_000_000) MB" : "\(limit) bytes")"
        case .malformed(let why): "the server's answer is broken: \(why)"
        }
    }

    init(_ error: StreamRelayError) {
        switch error {
        case .invalidAddress(let why): self = .invalidAddress(why)
        case .privateNetwork(let host): self = .privateNetwork(host)
        case .unreachable(let why): self = .unreachable(why)
        case .tooManyHops: self = .tooManyRedirects
        case .malformed(let why): self = .malformed(why)
        case .status(let status): self = .malformed("HTTP \(status)")
        case .notAudio(let type): self = .malformed(type)
        case .hlsStation(let url): self = .malformed("\(url) is an HLS playlist")
        }
    }
}
