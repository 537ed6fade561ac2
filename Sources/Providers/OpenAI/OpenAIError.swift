/// Why an OpenAI(-compatible) request gave no usable answer, in terms a caller can act on.
public enum OpenAIError: TransportFailure, Sendable, Equatable {
    /// 429 for too many requests; retried after Retry-After up to a limit, then reported.
    case rateLimited(retryAfter: Double?)
    /// 429 insufficient_quota (or a billing error): retrying cannot help.
    case quota(String)
    /// 401/403: the key is wrong or lacks access.
    case unauthorized(String)
    /// Any other error status, with the service's message.
    case status(Int, String)
    /// No answer within the time allowed.
    case timeout
    case unreachable(String)
    /// An answer that is not what the protocol says (not JSON, no text, an incomplete reply).
    case malformed(String)
    /// The model declined to answer.
    case refused(String)

    /// A sentence for logs and for the page's "why the AI did not pick" line.
    public var message: String {
        switch self {
        case .rateLimited(let after): "The AI service is rate limiting requests" + (after.map { " (retry after \(Int($0)) s)" } ?? "") + "."
        case .quota(let m): "The AI service's quota is used up: \(m)"
        case .unauthorized(let m): "The AI service refused the key: \(m)"
        case .status(let code, let m): "The AI service answered \(code): \(m)"
        case .timeout: "The AI service did not answer in time."
        case .unreachable(let m): "The AI service could not be reached: \(m)"
        case .malformed(let m): "The AI service's answer could not be used: \(m)"
        case .refused(let m): "The model declined: \(m)"
        }
    }

    /// Whether trying again later may work.
    public var isTransient: Bool {
        switch self {
        case .rateLimited, .timeout, .unreachable: true
        case .status(let code, _): code >= 500
        default: false
        }
    }
}
