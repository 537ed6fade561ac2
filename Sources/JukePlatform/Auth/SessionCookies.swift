import HTTPTypes
import Hummingbird
import Synchronization

/// Set-Cookie headers that handlers want on their response. The generated OpenAPI server
/// percent-encodes header values (the spec's "simple" style), which would break a cookie,
/// so handlers leave cookies here and `SessionCookieMiddleware` writes them verbatim.
final class ResponseCookies: Sendable {
    private let cookies = Mutex<[String]>([])

    @TaskLocal static var current: ResponseCookies?

    static func set(_ cookie: String) {
        current?.cookies.withLock { $0.append(cookie) }
    }

    var all: [String] { cookies.withLock { $0 } }
}

struct SessionCookieMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let jar = ResponseCookies()
        var response = try await ResponseCookies.$current.withValue(jar) { try await next(request, context) }
        for cookie in jar.all { response.headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return response
    }
}
