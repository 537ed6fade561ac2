import JukeCore
import Storage

/// A Subsonic failure: one of the protocol's codes and a message. Everything a Subsonic
/// endpoint throws becomes one of these in one place (`SubsonicError.from`), and the
/// envelope writes it; no endpoint writes an error of its own.
public struct SubsonicError: Error, Sendable, Equatable {
    public enum Code: Int, Sendable {
        case generic = 0
        case missingParameter = 10
        case clientMustUpgrade = 20
        case serverMustUpgrade = 30
        case wrongCredentials = 40
        case tokenAuthenticationNotSupported = 41
        case mechanismNotSupported = 42
        case conflictingMechanisms = 43
        case invalidAPIKey = 44
        case notAuthorized = 50
        case notFound = 70
    }

    public let code: Code
    public let message: String
    public var helpURL: String?
    /// Seconds until a refused sign-in may be tried again (sent as Retry-After too).
    public var retryAfter: Int?

    public init(_ code: Code, _ message: String, helpURL: String? = nil) {
        self.code = code
        self.message = message
        self.helpURL = helpURL
    }

    public static func missing(_ parameter: String) -> Self { .init(.missingParameter, "Required parameter is missing: \(parameter).") }
    public static func invalid(_ parameter: String, _ why: String) -> Self { .init(.generic, "\(parameter): \(why)") }
    public static func notFound(_ what: String) -> Self { .init(.notFound, "\(what) not found.") }
    public static var wrongCredentials: Self { .init(.wrongCredentials, "Wrong username or password.") }
    public static var invalidAPIKey: Self { .init(.invalidAPIKey, "Invalid API key.") }
    public static var adminOnly: Self { .init(.notAuthorized, "Only an admin may do this.") }

    /// The one mapping of whatever an endpoint threw into Subsonic's terms: the platform's
    /// refusals by their HTTP meaning, a missing row as not found, anything else as a generic
    /// error whose details stay in the log (the caller says so).
    public static func from(_ error: any Error) -> (error: SubsonicError, unexpected: Bool) {
        switch error {
        case let error as SubsonicError: return (error, false)
        case let error as APIError:
            switch error.status.code {
            case 401: return (.wrongCredentials, false)
            case 403: return (.init(.notAuthorized, error.message), false)
            case 404: return (.init(.notFound, error.message), false)
            case 429:
                var refusal = SubsonicError(.generic, error.message)
                refusal.retryAfter = error.retryAfter
                return (refusal, false)
            case 400..<500: return (.init(.generic, error.message), false)
            default: return (.init(.generic, error.message), error.status.code >= 500)
            }
        case let error as RuleRefusal:
            switch error {
            case .notFound: return (.init(.notFound, error.message), false)
            case .forbidden: return (.init(.notAuthorized, error.message), false)
            default: return (.init(.generic, error.message), false)
            }
        case StorageError.notFound(let what): return (.notFound(what), false)
        case StorageError.noConnection:
            var busy = SubsonicError(.generic, APIError.noDatabaseConnection.message)
            busy.retryAfter = APIError.noDatabaseConnection.retryAfter
            return (busy, false)
        default: return (.init(.generic, "The server could not answer this request."), true)
        }
    }
}
