public import JukeCore

/// Someone the host took out of a game. Their account cannot join that game again by the
/// invite code until the host lets them back: "Join again" used to seat them at once, so a
/// removal did nothing against a stranger who had the code.
public struct RemovedPlayer: Sendable, Codable, Equatable {
    /// The seat they had (the host lets them back by it; it names no account).
    public let player: PlayerID
    public let user: UserID
    public let displayName: String

    public init(player: PlayerID, user: UserID, displayName: String) {
        self.player = player
        self.user = user
        self.displayName = displayName
    }
}
