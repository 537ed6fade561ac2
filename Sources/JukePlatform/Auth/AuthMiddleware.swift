import Hummingbird
import JukeCore
import Storage

/// Resolves the caller from `Authorization: Bearer` or, for GET and HEAD only, the session
/// cookie (so `<audio src>` works, while a forged cross-site POST never carries authority).
///
/// The routes apps name as batch-checked (a game's answers) are the one exception to a lookup
/// per request: a thousand a second come from phones whose tokens this server has just seen,
/// and the batch that stores them checks their tokens in one query (see `KnownTokens`).
struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let users: UserStore
    let known: KnownTokens
    let clock: WallClock
    let batchChecked: [RoutePattern]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = Tokens.presented(by: request) else { return try await next(request, context) }
        let hash = Tokens.hash(token)
        if batchChecked.contains(where: { $0.matches(request) }), let user = known.user(hash) {
            return try await CurrentRequest.$user.withValue(user) {
                try await CurrentRequest.$tokenHash.withValue(hash) {
                    try await CurrentRequest.$tokenUnchecked.withValue(true) { try await next(request, context) }
                }
            }
        }
        let user = try await users.user(tokenHash: hash, now: clock.now())
        if let user { known.remember(hash, as: user) }
        return try await CurrentRequest.$user.withValue(user) {
            try await CurrentRequest.$tokenHash.withValue(user == nil ? nil : hash) {
                try await next(request, context)
            }
        }
    }
}
