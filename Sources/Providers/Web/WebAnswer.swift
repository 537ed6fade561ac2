public import Foundation

/// The head of a fetched answer, after redirects.
public struct WebAnswer: Sendable, Equatable {
    public let status: Int
    /// Header values by lower-cased name.
    public let headers: [String: String]
    /// The address that answered.
    public let url: URL
    /// Where the resource now lives when every redirect on the way was permanent (301, 308):
    /// a subscriber moves there. Nil without redirects, or when any was temporary.
    public let movedPermanently: URL?

    public init(status: Int, headers: [String: String], url: URL, movedPermanently: URL?) {
        self.status = status
        self.headers = headers
        self.url = url
        self.movedPermanently = movedPermanently
    }

    /// The media type without its parameters, lower-cased.
    public var contentType: String? {
        headers["content-type"].flatMap { $0.split(separator: ";").first }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The `charset` parameter of Content-Type, if any.
    public var charset: String? {
        guard let type = headers["content-type"] else { return nil }
        for parameter in type.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" { return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
        }
        return nil
    }

    /// Content-Length, when it is a number.
    public var contentLength: Int64? {
        headers["content-length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Seconds the server asks to be left alone (Retry-After, in seconds or as an HTTP date).
    public func retryAfter(now: Date) -> TimeInterval? {
        RetryAfter.seconds(headers["retry-after"], now: now)
    }
}
