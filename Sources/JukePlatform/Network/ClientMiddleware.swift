import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Finds who is calling (`ClientOrigin`) for everything after it: the client's address for
/// the limits, whether it came over HTTPS (the cookie's Secure flag), the origin for links;
/// and refuses a WebSocket upgrade from another site's page.
///
/// A browser sends cookies with a WebSocket upgrade from any site, and the upgrade is not
/// subject to CORS: without the Origin check, a page elsewhere could open a live game as the
/// signed-in visitor. Clients that are not browsers (no Origin, or not an http(s) one) are
/// let through.
struct ClientMiddleware: RouterMiddleware {
    typealias Context = JukeRequestContext
    let origin: ClientOrigin
    /// Other sites' pages allowed to open live connections ("https://party.example").
    let allowedOrigins: Set<String>

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")
    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let peer = context.remoteAddress?.ipAddress ?? "unknown"
        let forwardedFor = Self.forwardedFor.map { request.headers[values: $0] } ?? []
        let client = origin.clientAddress(peer: peer, forwardedFor: forwardedFor)
        let secure = origin.isSecure(peer: peer, forwardedProto: Self.forwardedProto.flatMap { request.headers[$0] })
        if request.headers[.upgrade]?.lowercased() == "websocket", let from = request.headers[.origin],
            !isAllowed(origin: from, request: request)
        {
            return APIError(status: .forbidden, code: "forbidden", message: "Live connections are only opened from Juke's own pages.").response()
        }
        let local = context.channel.localAddress
        let link = origin.linkOrigin(localAddress: local?.ipAddress, localPort: local?.port, secure: secure)
        return try await CurrentRequest.$remoteAddress.withValue(client) {
            try await CurrentRequest.$isSecure.withValue(secure) {
                try await CurrentRequest.$linkOrigin.withValue(link) { try await next(request, context) }
            }
        }
    }

    /// The page's own host (the Host the browser asked for), the public URL's origin, or one
    /// the admin allowed.
    func isAllowed(origin from: String, request: Request) -> Bool {
        let from = from.lowercased()
        // Browsers write a page's origin as http(s), or "null" for a sandboxed or local page;
        // anything else (a WebSocket library's "ws://host") is a client that is no browser
        // and carries no visitor's cookie.
        if from == "null" { return false }
        guard from.hasPrefix("http://") || from.hasPrefix("https://") else { return true }
        if allowedOrigins.contains(from) || from == origin.publicOrigin { return true }
        guard let host = request.head.authority?.lowercased() else { return false }
        // Either scheme for the very host the browser asked for: behind a TLS proxy that is
        // not configured as trusted, the page is https while this connection looks like http.
        return from == "https://\(host)" || from == "http://\(host)"
    }
}
