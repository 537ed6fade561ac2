public import Foundation

/// A request to an outside service, as `HTTPClient` sends it: an address, a method, headers
/// and a body. Its calls read like Foundation's URL request's, which it replaces: that type
/// lives in FoundationNetworking on Linux, with Foundation's libcurl-based loader behind it.
public struct OutboundRequest: Sendable {
    public var url: URL
    public var httpMethod = "GET"
    public var httpBody: Data?
    /// In the order set; one value per name (names compared without case).
    public private(set) var headers: [(name: String, value: String)] = []

    public init(url: URL) { self.url = url }

    /// Sets (or, with nil, removes) a header.
    public mutating func setValue(_ value: String?, forHTTPHeaderField name: String) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        if let value { headers.append((name, value)) }
    }

    public func value(forHTTPHeaderField name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
