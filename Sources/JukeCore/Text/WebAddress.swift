public import Foundation

/// An http(s) address from text someone else wrote: a setting, a form, a feed, a directory's
/// answer. One reading for every place Juke takes such text, so that each does not decide on
/// its own what "a web address" is. The text is trimmed; the scheme is http or https in any
/// case; there is a host; there is no user or password before the host (Juke's fetchers never
/// send them, and on a page "https://bank.example@evil.example" leads to evil.example); a
/// port is 1 to 65535. Rules only one place needs (no spaces at all in a feed address the
/// person typed, a path-less origin) stay at that place.
public struct WebAddress: Sendable, Hashable {
    /// The address as parsed.
    public let url: URL
    /// The trimmed text it was read from.
    public let text: String

    /// Why text is not an http(s) address.
    public enum Refusal: Error, Sendable, Equatable {
        case empty
        case tooLong(limit: Int)
        /// Foundation cannot read it as an address at all.
        case malformed
        /// A scheme other than http or https (ftp:, javascript:, file:), or none.
        case notWeb
        case noHost
        case userInfo
        case badPort
    }

    /// Long enough for any real page or feed address (they are rarely above a few hundred
    /// characters), short enough that text pasted by mistake is refused.
    public static let defaultLimit = 2000

    /// The address in `text`, or why it is not one. `limit` counts Unicode scalars of the
    /// trimmed text.
    public static func parse(_ text: String, limit: Int = defaultLimit) -> Result<WebAddress, Refusal> {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .failure(.empty) }
        if trimmed.unicodeScalars.count > limit { return .failure(.tooLong(limit: limit)) }
        guard let url = URL(string: trimmed) else { return .failure(.malformed) }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return .failure(.notWeb) }
        guard let host = url.host, !host.isEmpty else { return .failure(.noHost) }
        if url.user != nil || url.password != nil { return .failure(.userInfo) }
        if let port = url.port, !(1...65535).contains(port) { return .failure(.badPort) }
        return .success(WebAddress(url: url, text: trimmed))
    }

    /// The address in `text`, or nil when it is not an http(s) address.
    public init?(_ text: String, limit: Int = defaultLimit) {
        guard case .success(let address) = Self.parse(text, limit: limit) else { return nil }
        self = address
    }

    private init(url: URL, text: String) {
        self.url = url
        self.text = text
    }
}
