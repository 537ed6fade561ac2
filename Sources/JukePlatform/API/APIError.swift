import ContractSupport
import Foundation
import HTTPTypes
import Hummingbird
import JukeCore

/// A failure a client caused or must know about, with the status and the JSON body the
/// spec documents: `{"error": code, "message": text, "field": name}`.
public struct APIError: Error, Sendable {
    public let status: HTTPResponse.Status
    public let code: String
    public let message: String
    public var field: String?
    public var retryAfter: Int?

    public static func badRequest(_ message: String, field: String? = nil) -> APIError {
        APIError(status: .badRequest, code: "bad_request", message: message, field: field)
    }
    public static func unprocessable(_ message: String, field: String) -> APIError {
        APIError(status: .unprocessableContent, code: "invalid_field", message: message, field: field)
    }
    public init(status: HTTPResponse.Status, code: String, message: String, field: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    public static let unauthorized = APIError(status: .unauthorized, code: "unauthorized", message: "Sign in first: send a valid bearer token.")
    public static let adminOnly = APIError(status: .forbidden, code: "forbidden", message: "Only an admin can do this.")
    public static func notFound(_ what: String) -> APIError { APIError(status: .notFound, code: "not_found", message: "No such \(what).") }
    public static func conflict(_ message: String, field: String? = nil) -> APIError {
        APIError(status: .conflict, code: "conflict", message: message, field: field)
    }
    public static func tooLarge(_ limit: Int) -> APIError {
        APIError(status: .contentTooLarge, code: "too_large", message: "The request body is larger than \(limit) bytes.")
    }

    /// The refusal as the contract's error responses write it.
    public var contractError: ContractError {
        ContractError(status: status.code, code: code, message: message, field: field, retryAfter: retryAfter)
    }

    /// The error JSON written by hand, for what no operation of the contract answers: a
    /// request that could not be decoded, a hand-written route (media, live connections).
    public func response() -> Response {
        var body: [String: String] = ["error": code, "message": message]
        if let field { body["field"] = field }
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension APIError {
    /// An app's refusal (a game's, a Back2Back session's) as HTTP: bad input 400, not yours
    /// to do 403, no such thing 404, not now 409.
    public init(_ error: RuleRefusal) {
        switch error {
        case .invalid(let field, let message): self = .badRequest(message, field: field)
        case .forbidden(let message): self = APIError(status: .forbidden, code: "forbidden", message: message)
        case .notFound(let message): self = APIError(status: .notFound, code: "not_found", message: message)
        case .conflict(let message): self = .conflict(message)
        }
    }
}
