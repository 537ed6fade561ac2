import Hummingbird

/// The responses every page route gives: a page with Juke's security headers, or a redirect.
public enum WebResponse {
    /// Scripts, styles and media only from this server; no inline script.
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"

    /// For pages that play other sites' audio and show their pictures (Dual Player's internet
    /// radio and station logos): media and images from any http(s) origin. Scripts, styles
    /// and connections stay this server's, so nothing from elsewhere can run or be fetched
    /// by script.
    static let outsideMediaPolicy =
        "default-src 'self'; img-src 'self' data: blob: https: http:; media-src 'self' blob: https: http:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"

    public static func html(_ body: String, status: HTTPResponse.Status = .ok, allowOutsideMedia: Bool = false) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .cacheControl: "no-store",
                .contentSecurityPolicy: allowOutsideMedia ? outsideMediaPolicy : contentSecurityPolicy,
                .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }

    public static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// The sign-in page, coming back to `path` afterwards.
    public static func signIn(then path: String) -> Response {
        let next = path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return redirect("/login?next=\(next)")
    }
}
