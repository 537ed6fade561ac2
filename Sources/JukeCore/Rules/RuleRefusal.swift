/// Why an app refused a request (a TuneTrivia game's rules, a Back2Back session's, or the
/// app's service): the domain's words, which the platform maps to HTTP in one place
/// (`APIError.init(_:)` in JukePlatform): invalid 400, unauthenticated 401, forbidden 403,
/// notFound 404, conflict 409 (tooLate too, with its own code), unprocessable 422,
/// tooManyAttempts 429 with Retry-After.
public enum RuleRefusal: Error, Sendable, Equatable {
    /// Bad input: the field and what is wrong with it.
    case invalid(String, String)
    /// The caller's sign-in is not (or no longer) valid.
    case unauthenticated(String)
    /// Not this caller's to do (only the host, only a member).
    case forbidden(String)
    case notFound(String)
    /// Not now: the state does not allow it, or it was already done.
    case conflict(String)
    /// Not any more: a deadline the rules keep has passed (an answer after the round's time
    /// ran out). A conflict a client tells apart by its code, `too_late`.
    case tooLate(String)
    /// Well-formed, but the field's value cannot be used (a song the library knows too
    /// little about to ask a fair question).
    case unprocessable(String, String)
    /// Too many failed attempts (wrong invite codes): try again after `retryAfter` seconds.
    case tooManyAttempts(String, retryAfter: Int)

    public var message: String {
        switch self {
        case .invalid(_, let m), .unauthenticated(let m), .forbidden(let m), .notFound(let m), .conflict(let m), .tooLate(let m),
            .unprocessable(_, let m),
            .tooManyAttempts(let m, _):
            m
        }
    }
}
