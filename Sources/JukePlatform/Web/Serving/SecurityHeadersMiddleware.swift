import HTTPTypes
import Hummingbird

/// Headers every response carries unless its route set its own: no framing by other sites
/// (clickjacking a "delete" button), no MIME sniffing (an upload served as a script), and
/// no full address in the Referer sent to other sites (a station's logo, a radio stream).
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        for (name, value) in securityHeaders where response.headers[name] == nil { response.headers[name] = value }
        return response
    }
}

private let securityHeaders: [(HTTPField.Name, String)] = [
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
].compactMap { name, value in HTTPField.Name(name).map { ($0, value) } }
