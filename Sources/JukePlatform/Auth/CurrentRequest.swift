import JukeCore

/// What the middleware learned about the caller, for handlers generated from the spec
/// (which see only their decoded input).
public enum CurrentRequest {
    @TaskLocal public static var user: User?
    @TaskLocal public static var tokenHash: String?
    /// The token was known to this server and not looked up again: whatever the caller
    /// does must check it in its own transaction (only a game's answers are let through so).
    @TaskLocal public static var tokenUnchecked = false
    /// The client's address, for limits and logs (`ClientMiddleware`).
    @TaskLocal public static var remoteAddress: String = "unknown"
    /// The browser reached Juke over HTTPS (directly, or through a trusted proxy).
    @TaskLocal public static var isSecure = false
    /// "scheme://host[:port]" for links in files people take away (`ClientOrigin.linkOrigin`).
    @TaskLocal public static var linkOrigin = "http://127.0.0.1"

    public static func requireUser() throws(APIError) -> User {
        guard let user else { throw APIError.unauthorized }
        return user
    }

    public static func requireAdmin() throws(APIError) -> User {
        let user = try requireUser()
        guard user.isAdmin else { throw APIError.adminOnly }
        return user
    }
}
