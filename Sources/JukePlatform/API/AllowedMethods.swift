import HTTPTypes

/// The methods each of the contract's paths answers, read from openapi.yaml (which lists
/// every route under /api, JSON or not), so that a wrong method gets 405 with an Allow
/// header instead of a 404 that says the address does not exist.
public struct AllowedMethods: Sendable {
    /// A path's segments (nil: a {parameter}) and its methods, upper case.
    private let routes: [(segments: [String?], methods: [String])]

    /// The `paths:` section of the contract: each path at two spaces' indent, each of its
    /// operations at four ("    get:").
    public init(contract yaml: String) {
        var routes: [(segments: [String?], methods: [String])] = []
        var inPaths = false
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: true) {
            if !line.hasPrefix(" ") {
                inPaths = line.hasPrefix("paths:")
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), !line.hasPrefix("   "), line.hasSuffix(":") {
                let path = line.dropFirst(2).dropLast()
                let segments = path.split(separator: "/").map { $0.hasPrefix("{") && $0.hasSuffix("}") ? nil : String($0) }
                routes.append((segments, []))
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let colon = line.firstIndex(of: ":"), !routes.isEmpty {
                let word = line[line.index(line.startIndex, offsetBy: 4)..<colon]
                if Self.operations.contains(String(word)) { routes[routes.count - 1].methods.append(word.uppercased()) }
            }
        }
        // HEAD is answered wherever GET is (the router makes it from GET).
        self.routes = routes.map { route in
            (route.segments, route.methods.contains("GET") && !route.methods.contains("HEAD") ? route.methods + ["HEAD"] : route.methods)
        }
    }

    static let operations: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// The methods `path` answers, or nil when the contract does not have it.
    public func methods(for path: String) -> [String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        for route in routes where route.segments.count == parts.count {
            if zip(route.segments, parts).allSatisfy({ segment, part in segment == nil || segment == String(part) }) { return route.methods }
        }
        return nil
    }

    public var isEmpty: Bool { routes.isEmpty }
}
