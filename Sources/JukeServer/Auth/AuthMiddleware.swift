import Hummingbird
import JukeCore
import Storage

/// Resolves the caller from `Authorization: Bearer` or, for GET and HEAD only, the session
/// cookie (so `<audio src>` works, while a forged cross-site POST never carries authority).
struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let users: UserStore
    let clock: WallClock

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let remote = context.remoteAddressText
        guard let token = Tokens.presented(by: request) else {
            return try await CurrentRequest.$remoteAddress.withValue(remote) { try await next(request, context) }
        }
        let hash = Tokens.hash(token)
        let user = try await users.user(tokenHash: hash, now: clock.now())
        return try await CurrentRequest.$remoteAddress.withValue(remote) {
            try await CurrentRequest.$user.withValue(user) {
                try await CurrentRequest.$tokenHash.withValue(user == nil ? nil : hash) {
                    try await next(request, context)
                }
            }
        }
    }
}

extension RequestContext {
    /// The peer's IP address as text, for rate limits and logs.
    var remoteAddressText: String {
        if let remote = (self as? any RemoteAddressRequestContext)?.remoteAddress {
            return remote.ipAddress ?? "unknown"
        }
        return "unknown"
    }
}
