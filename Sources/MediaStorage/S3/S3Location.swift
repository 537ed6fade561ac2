/// Where in S3 a store keeps its objects, as the setting names it: `s3://BUCKET[/PREFIX]`.
public struct S3Location: Sendable, Equatable, CustomStringConvertible {
    public let bucket: String
    /// Segments every key is stored under ("juke/media"), or nil.
    public let prefix: String?

    public init(bucket: String, prefix: String?) {
        self.bucket = bucket
        self.prefix = prefix
    }

    public var description: String { "s3://" + bucket + (prefix.map { "/" + $0 } ?? "") }

    /// Why a setting is not an S3 location, said so a person can fix it.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Reads `s3://BUCKET[/PREFIX]` (a trailing "/" allowed). The bucket follows S3's naming
    /// rules, which every S3-compatible server accepts: 3 to 63 lowercase letters, digits, dots
    /// and hyphens, starting and ending with a letter or digit, no "..", and not an IP address.
    /// The prefix is made of key segments (`StorageKey`'s rules), so prefix and key join
    /// without escaping.
    public static func parse(_ setting: String) throws(Invalid) -> S3Location {
        guard setting.hasPrefix("s3://") else {
            throw Invalid(description: "\"\(setting)\" is not an S3 location: write s3://BUCKET or s3://BUCKET/PREFIX")
        }
        var rest = Substring(setting.dropFirst(5))
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        let bucket: Substring
        let prefix: Substring?
        if let slash = rest.firstIndex(of: "/") {
            bucket = rest[..<slash]
            prefix = rest[rest.index(after: slash)...]
        } else {
            bucket = rest
            prefix = nil
        }
        if let problem = bucketProblem(String(bucket)) {
            throw Invalid(description: "\"\(bucket)\" is not a bucket name: \(problem)")
        }
        if let prefix {
            guard StorageKey(String(prefix)) != nil else {
                throw Invalid(
                    description: "\"\(prefix)\" is not a prefix: segments of letters, digits and -_. separated by single slashes, none of them . or ..")
            }
        }
        return S3Location(bucket: String(bucket), prefix: prefix.map(String.init))
    }

    static func bucketProblem(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return "it must be 3 to 63 characters long" }
        func isLetterOrDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard bytes.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }) else {
            return "only lowercase letters, digits, dots and hyphens are allowed"
        }
        guard let first = bytes.first, let last = bytes.last, isLetterOrDigit(first), isLetterOrDigit(last) else {
            return "it must start and end with a letter or digit"
        }
        guard !name.contains("..") else { return "it must not have two dots in a row" }
        let parts = name.split(separator: ".")
        if parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) { return "it must not be an IP address" }
        return nil
    }
}
