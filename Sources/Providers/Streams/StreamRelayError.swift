public import Foundation

/// Why a radio stream could not be opened, in words a listener can act on.
public enum StreamRelayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not an http(s) address with a host.
    case invalidAddress(String)
    /// The name resolves only to addresses inside a private or local network.
    case privateNetwork(String)
    /// DNS, the connection, TLS or the server's silence.
    case unreachable(String)
    /// The server answered with an error status.
    case status(Int)
    /// The answer is not audio (an HTML page, JSON, an image).
    case notAudio(String)
    /// More redirects or playlists than a station needs.
    case tooManyHops
    /// The answer broke HTTP or its framing.
    case malformed(String)
    /// The address is an HLS playlist, which is played from the station, not relayed.
    case hlsStation(URL)

    public var description: String {
        switch self {
        case .invalidAddress(let why): "not a stream address: \(why)"
        case .privateNetwork(let host): "\(host) is inside a private or local network, which Juke does not open streams from"
        case .unreachable(let why): why
        case .status(let status): "the station answered HTTP \(status)"
        case .notAudio(let type): "the station answered \(type), not audio"
        case .tooManyHops: "the station redirected too many times"
        case .malformed(let why): "the station's answer is broken: \(why)"
        case .hlsStation(let url): "\(url.absoluteString) is an HLS playlist"
        }
    }
}
