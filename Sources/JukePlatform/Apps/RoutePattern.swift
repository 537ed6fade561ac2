import HTTPTypes
import Hummingbird

/// A route an app names to the platform, by method and path: `{name}` stands for any one
/// segment, and a trailing slash is ignored. How an app tells the platform of a route that
/// needs a rule of its own without the platform knowing the app.
public struct RoutePattern: Sendable, Hashable {
    public let method: HTTPRequest.Method
    /// Each segment, nil where any one goes.
    let segments: [String?]

    public init(_ method: HTTPRequest.Method, _ path: String) {
        self.method = method
        self.segments = path.split(separator: "/").map { $0.hasPrefix("{") && $0.hasSuffix("}") ? nil : String($0) }
    }

    public func matches(_ request: Request) -> Bool {
        guard request.method == method else { return false }
        let parts = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == segments.count else { return false }
        return zip(parts, segments).allSatisfy { part, segment in segment.map { $0 == part } ?? !part.isEmpty }
    }
}
