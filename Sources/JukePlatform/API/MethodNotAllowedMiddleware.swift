import Hummingbird

/// A method the contract does not list for a path it has: 405 with the methods it does
/// take, as RFC 9110 asks, instead of the router's 404.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowed: AllowedMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A WebSocket upgrade is a GET the contract does not describe.
        guard request.headers[.upgrade] == nil, let methods = allowed.methods(for: request.uri.path), !methods.contains(request.method.rawValue)
        else {
            return try await next(request, context)
        }
        var response = APIError(status: .methodNotAllowed, code: "method_not_allowed", message: "\(request.method.rawValue) is not allowed here.")
            .response()
        response.headers[.allow] = methods.joined(separator: ", ")
        return response
    }
}
