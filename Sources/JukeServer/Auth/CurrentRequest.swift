import JukeCore

/// What the middleware learned about the caller, for handlers generated from the spec
/// (which see only their decoded input).
enum CurrentRequest {
    @TaskLocal static var user: User?
    @TaskLocal static var tokenHash: String?
    /// The token was known to this server and not looked up again: whatever the caller
    /// does must check it in its own transaction (only a game's answers are let through so).
    @TaskLocal static var tokenUnchecked = false
    @TaskLocal static var remoteAddress: String = "unknown"

    static func requireUser() throws(APIError) -> User {
        guard let user else { throw APIError.unauthorized }
        return user
    }

    static func requireAdmin() throws(APIError) -> User {
        let user = try requireUser()
        guard user.isAdmin else { throw APIError.adminOnly }
        return user
    }
}
