/// Why a command was refused. The server maps these to HTTP statuses: invalid 400,
/// forbidden 403, notFound 404, conflict 409.
public enum GameError: Error, Sendable, Equatable {
    /// Bad input: the field and what is wrong with it.
    case invalid(String, String)
    /// Only the host may do this (or only a player of this game).
    case forbidden(String)
    case notFound(String)
    /// Not now: the game is not in a state that allows it, or it was already done.
    case conflict(String)

    public var message: String {
        switch self {
        case .invalid(_, let m), .forbidden(let m), .notFound(let m), .conflict(let m): m
        }
    }
}
