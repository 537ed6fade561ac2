import Hummingbird
import JukeCore
import Logging
import OpenAPIRuntime

/// Turns every error into the JSON error the spec documents. The generated server wraps
/// failures in `ServerError`: one with no decoded input means the request itself could not
/// be decoded (a client's mistake: 400, never 500); one from a handler carries our APIError.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response()
        } catch let error as RuleRefusal {
            return APIError(error).response()
        } catch let error as ServerError {
            if let undeclared = error.underlyingError as? UndeclaredError {
                // Drift between a handler and openapi.yaml: a bug to fix in one or the other.
                context.logger.error("undeclared error response", metadata: ["operation": "\(error.operationID)", "error": "\(undeclared)"])
                return APIError(status: .internalServerError, code: "internal", message: "Something went wrong on the server.").response()
            }
            if let api = error.underlyingError as? APIError { return api.response() }
            if let refusal = error.underlyingError as? RuleRefusal { return APIError(refusal).response() }
            if error.operationInput == nil {
                return APIError.badRequest("The request could not be read: \(Self.reason(error))").response()
            }
            context.logger.error("handler failed", metadata: ["operation": "\(error.operationID)", "error": "\(error.underlyingError)"])
            return APIError(status: .internalServerError, code: "internal", message: "Something went wrong on the server.").response()
        } catch let error as HTTPError {
            let code = error.status == .notFound ? "not_found" : "http_\(error.status.code)"
            return APIError(status: error.status, code: code, message: error.body ?? error.status.reasonPhrase).response()
        } catch {
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return APIError(status: .internalServerError, code: "internal", message: "Something went wrong on the server.").response()
        }
    }

    /// The most useful sentence from a decoding failure, without internal type names.
    static func reason(_ error: ServerError) -> String {
        let text = String(describing: error.underlyingError)
        if text.count > 300 { return String(text.prefix(300)) + "…" }
        return text
    }
}
