import Foundation
import Hummingbird
import Logging

/// Each request at debug level, as Hummingbird's `LogRequestsMiddleware` logs it, but with
/// the values of credential parameters replaced: Subsonic players send `p` (a password),
/// `t` and `s` (a token and its salt) and `apiKey` in the query, and a log is no place for
/// them (`signature` and `token` too, for signed media links).
struct RedactedRequestLog<Context: RequestContext>: RouterMiddleware {
    static var secretNames: Set<String> { ["p", "t", "s", "apikey", "token", "signature", "password"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        context.logger.debug(
            "Request", metadata: ["hb.request.path": .string(Self.redacted(request.uri.description)), "hb.request.method": .string(request.method.rawValue)])
        return try await next(request, context)
    }

    /// The address with every secret parameter's value replaced by `REDACTED`.
    static func redacted(_ uri: String) -> String {
        guard let question = uri.firstIndex(of: "?") else { return uri }
        let path = uri[..<question]
        let query = uri[uri.index(after: question)...]
        let parts = query.split(separator: "&", omittingEmptySubsequences: false).map { part -> String in
            let name = part.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            let decoded = (name.removingPercentEncoding ?? name).lowercased()
            return secretNames.contains(decoded) ? name + "=REDACTED" : String(part)
        }
        return path + "?" + parts.joined(separator: "&")
    }
}
