import Hummingbird
import JukeCore
import Logging
import OpenAPIRuntime

/// Turns what no operation answered into the JSON error the spec documents: a request the
/// generated server could not decode (`ServerError` with no input: a client's mistake, 400,
/// never 500), a hand-written route's refusal (`APIError.from`), drift between a handler and
/// the contract (`UndeclaredError`: 500, logged), and failures (500, logged).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServerError {
            if let undeclared = error.underlyingError as? UndeclaredError {
                // Drift between a handler and openapi.yaml: a bug to fix in one or the other.
                context.logger.error("undeclared error response", metadata: ["operation": "\(error.operationID)", "error": "\(undeclared)"])
                return APIError(status: .internalServerError, code: "internal", message: "Something went wrong on the server.").response()
            }
            if let refusal = APIError.from(error.underlyingError) { return refusal.response() }
            if error.operationInput == nil {
                return APIError.badRequest("The request could not be read: \(Self.reason(error))").response()
            }
            context.logger.error("handler failed", metadata: ["operation": "\(error.operationID)", "error": "\(error.underlyingError)"])
            return APIError(status: .internalServerError, code: "internal", message: "Something went wrong on the server.").response()
        } catch let error as HTTPError {
            let code = error.status == .notFound ? "not_found" : "http_\(error.status.code)"
            return APIError(status: error.status, code: code, message: error.body ?? error.status.reasonPhrase).response()
        } catch {
            // A hand-written route's refusal (media, live connections, streams).
            if let refusal = APIError.from(error) { return refusal.response() }
            // The framework's own refusals (a body past a limit) keep their status.
            if let error = error as? any HTTPResponseError, error.status.code < 500 {
                return APIError(status: error.status, code: "http_\(error.status.code)", message: error.status.reasonPhrase).response()
            }
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
