/// Why an app's rules refused a command (a TuneTrivia game's, a Back2Back session's). The
/// engines share it so the server maps every refusal to HTTP in one place: invalid 400,
/// forbidden 403, notFound 404, conflict 409.
public enum RuleRefusal: Error, Sendable, Equatable {
    /// Bad input: the field and what is wrong with it.
    case invalid(String, String)
    /// Not this caller's to do (only the host, only a member).
    case forbidden(String)
    case notFound(String)
    /// Not now: the state does not allow it, or it was already done.
    case conflict(String)

    public var message: String {
        switch self {
        case .invalid(_, let m), .forbidden(let m), .notFound(let m), .conflict(let m): m
        }
    }
}
