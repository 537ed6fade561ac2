import JukePlatform
import Providers

/// Spotify's failures as HTTP, declared by the one app that talks to Spotify.
extension SpotifyError: APIErrorConvertible {
    /// What a runner is told when Spotify refuses: connect again (409), open Spotify on a
    /// device (409), wait (503 with Retry-After), or Spotify's own failure (502).
    public var apiError: APIError {
        switch self {
        case .invalidGrant:
            return APIError(status: .conflict, code: "spotify_reauthorize", message: "Spotify needs you to connect again.")
        case .noActiveDevice:
            return APIError(status: .conflict, code: "spotify_no_device", message: description)
        case .premiumRequired:
            return APIError(status: .conflict, code: "spotify_premium_required", message: description)
        case .rateLimited(let seconds):
            return APIError(
                status: .serviceUnavailable, code: "spotify_busy", message: "Spotify is limiting how often Juke may ask; try again shortly.",
                retryAfter: min(max(seconds, 1), 3600))
        case .notFound:
            return APIError(status: .notFound, code: "not_found", message: String(description.prefix(300)))
        case .unauthorized, .refused, .malformed, .timeout, .unreachable:
            return APIError(status: .badGateway, code: "spotify_unavailable", message: String(description.prefix(300)))
        }
    }
}
