import ContractSupport
import Foundation
import HTTPTypes
import Hummingbird
import JukeCore
import Providers
import Storage

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
    /// The server is at its limit for this kind of work: try again in a moment.
    public static func busy(retryAfter: Int) -> APIError {
        APIError(status: .serviceUnavailable, code: "busy", message: "The server is busy; try again in a moment.", retryAfter: retryAfter)
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

/// A failure that says how HTTP answers it. An app declares it for the errors only it meets
/// (RunBeat for Spotify's), so that the platform maps them without knowing the app.
public protocol APIErrorConvertible: Error {
    var apiError: APIError { get }
}

extension APIError {
    /// The one place where a failure meets HTTP: an app's refusal, a catalog's failure, a
    /// failure that says its own answer, or the platform's own `APIError`; nil for anything
    /// else (a bug or an outage: 500).
    public static func from(_ error: any Error) -> APIError? {
        switch error {
        case let error as APIError: error
        case let refusal as RuleRefusal: APIError(refusal)
        case let failure as CatalogFailure: APIError(failure)
        case let failure as TranscodeError: APIError(failure)
        case StorageError.noConnection: .noDatabaseConnection
        case let failure as any APIErrorConvertible: failure.apiError
        default: nil
        }
    }

    /// An app's refusal as HTTP: bad input 400, not signed in 401, not yours to do 403, no
    /// such thing 404, not now 409 (too late: 409 with code too_late), unusable value 422, too many
    /// attempts 429.
    public init(_ error: RuleRefusal) {
        switch error {
        case .invalid(let field, let message): self = .badRequest(message, field: field)
        case .unauthenticated(let message): self = APIError(status: .unauthorized, code: "unauthorized", message: message)
        case .forbidden(let message): self = APIError(status: .forbidden, code: "forbidden", message: message)
        case .notFound(let message): self = APIError(status: .notFound, code: "not_found", message: message)
        case .conflict(let message): self = .conflict(message)
        case .tooLate(let message): self = APIError(status: .conflict, code: "too_late", message: message)
        case .unprocessable(let field, let message): self = .unprocessable(message, field: field)
        case .tooManyAttempts(let message, let retryAfter):
            self = APIError(status: .tooManyRequests, code: "too_many_attempts", message: message, retryAfter: retryAfter)
        }
    }

    /// A transcode that cannot be had: every slot and the line taken is worth waiting for (503
    /// with Retry-After); a file ffmpeg cannot read will not change by asking again (422).
    public init(_ failure: TranscodeError) {
        switch failure {
        case .busy:
            self = APIError(
                status: .serviceUnavailable, code: "transcoder_busy", message: "Every transcode slot is taken; try again in a moment.", retryAfter: 5)
        case .failed(let why):
            self = APIError(status: .unprocessableContent, code: "transcode_failed", message: "The file could not be transcoded: \(why)")
        }
    }

    /// What a person is told when an outside catalog fails: a rate limit is worth waiting
    /// for (503 with Retry-After); anything else is the catalog's failure, not the
    /// request's (502).
    public init(_ failure: CatalogFailure) {
        let provider = failure.provider
        switch failure.error {
        case .rateLimited(let retryAfter):
            // The catalog already refuses what is not a finite number of seconds; a minute at most here.
            self = APIError(
                status: .serviceUnavailable, code: "catalog_busy", message: "\(provider) is limiting how often Juke may search; try again shortly.",
                retryAfter: Int(min(max(retryAfter ?? 5, 1), 60).rounded(.up)))
        case .unauthorized(let detail), .invalidKey(let detail):
            self = APIError(status: .badGateway, code: "catalog_refused", message: "\(provider) refused Juke's key: \(detail.prefix(200))")
        case .timeout:
            self = APIError(status: .badGateway, code: "catalog_unavailable", message: "\(provider) did not answer in time.")
        case .unreachable(let detail):
            self = APIError(status: .badGateway, code: "catalog_unavailable", message: "\(provider) cannot be reached: \(detail.prefix(200))")
        case .status(let code, _):
            self = APIError(status: .badGateway, code: "catalog_unavailable", message: "\(provider) answered with status \(code).")
        case .malformed:
            self = APIError(status: .badGateway, code: "catalog_unavailable", message: "\(provider) sent a reply Juke cannot read.")
        }
    }

}
