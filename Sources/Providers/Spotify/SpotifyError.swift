/// What Spotify refused, in the words the app acts on: sign in again, refresh, wait, pick a
/// device, or tell the runner.
public enum SpotifyError: TransportFailure, Sendable, Equatable, CustomStringConvertible {
    /// The refresh token (or code) is no longer good: the runner must authorise Juke again.
    case invalidGrant(String)
    /// The access token expired or was revoked (401): refresh and try once more.
    case unauthorized
    /// Too many requests (429): try again after this many seconds.
    case rateLimited(retryAfter: Int)
    /// No device is playing (NO_ACTIVE_DEVICE): transfer playback to one first.
    case noActiveDevice
    /// Playback control needs Spotify Premium.
    case premiumRequired
    case notFound(String)
    case refused(status: Int, message: String)
    case malformed(String)
    case timeout
    case unreachable(String)

    public var description: String {
        switch self {
        case .invalidGrant(let why): "Spotify needs you to connect again (\(why))"
        case .unauthorized: "Spotify refused the access token"
        case .rateLimited(let seconds): "Spotify asks to wait \(seconds) s"
        case .noActiveDevice: "no Spotify device is active: open Spotify on a phone or computer"
        case .premiumRequired: "controlling playback needs Spotify Premium"
        case .notFound(let what): "Spotify has no \(what)"
        case .refused(let status, let message): "Spotify refused (\(status)): \(message)"
        case .malformed(let what): "Spotify answered something Juke cannot read: \(what)"
        case .timeout: "Spotify did not answer in time"
        case .unreachable(let why): "Spotify is out of reach: \(why)"
        }
    }
}
