/// A refusal as the contract writes it: the status, and the body and headers of the
/// `Error` responses that openapi.yaml declares (`{"error", "message", "field"}`, and
/// Retry-After on 429 and 503).
public struct ContractError: Error, Sendable, Equatable {
    public let status: Int
    public let code: String
    public let message: String
    public let field: String?
    public let retryAfter: Int?

    public init(status: Int, code: String, message: String, field: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }
}

/// An operation's generated output that can carry the error responses the contract declares
/// for it. The conformances are generated from openapi.yaml (the ContractErrors plugin), one
/// case per declared status, so the generated server writes every error body, and a status
/// the contract does not declare for the operation has no case: `init` returns nil.
public protocol ContractErrorResponse {
    init?(contractError: ContractError)
}
