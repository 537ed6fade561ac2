import Crypto
public import Foundation

/// AWS Signature Version 4, as S3 checks it, written out on swift-crypto so that each step
/// (canonical request, string to sign, signature) can be checked on its own against AWS's
/// published vectors. The time is always given: nothing here reads the clock.
///
/// S3's rules, which this follows for every service: the path is URI-encoded once (S3 does
/// not double-encode it, nor normalize `.` segments), every byte but A-Z a-z 0-9 `-_.~` and
/// the path's "/" is percent-encoded in upper-case hex.
public struct SignatureV4: Sendable {
    public static let algorithm = "AWS4-HMAC-SHA256"
    /// The payload hash a presigned URL, or a streamed upload, signs instead of the body's.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The SHA-256 of no bytes.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    public let credentials: S3Credentials
    public let region: String
    public let service: String

    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// What is signed of a request: the path and query not yet encoded (a key as it is, not
    /// escaped), and the headers to sign (at least Host).
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var query: [(name: String, value: String)]
        public var headers: [(name: String, value: String)]

        public init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)]) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
        }
    }

    /// A signed request, and each step of its signing.
    public struct Signed: Sendable {
        public let canonicalRequest: String
        public let stringToSign: String
        public let signature: String
        /// The headers to send: the request's and the signature's (X-Amz-Date, the payload
        /// hash, Authorization), or for a presigned URL just the request's.
        public let headers: [(name: String, value: String)]
        /// The query to send: the request's, and for a presigned URL the signature's.
        public let query: [(name: String, value: String)]

        /// The query as it goes in a URL, encoded as it was signed, in its order (the
        /// signature last).
        public var encodedQuery: String {
            var parts: [String] = []
            for item in query { parts.append(SignatureV4.encode(item.name, keepSlash: false) + "=" + SignatureV4.encode(item.value, keepSlash: false)) }
            return parts.joined(separator: "&")
        }
    }

    /// Signs with an Authorization header. `payloadHash` is the body's SHA-256 in hex, or
    /// `unsignedPayload`; with `contentSHA256Header` (what S3 needs) it is also sent and
    /// signed as `x-amz-content-sha256`.
    public func signHeaders(_ request: Request, payloadHash: String, date: Date, contentSHA256Header: Bool = true) -> Signed {
        let stamp = Self.timestamp(date)
        var headers = request.headers
        headers.append((name: "X-Amz-Date", value: stamp))
        if contentSHA256Header { headers.append((name: "x-amz-content-sha256", value: payloadHash)) }
        if let token = credentials.sessionToken { headers.append((name: "X-Amz-Security-Token", value: token)) }
        let (canonicalHeaders, signedHeaders) = Self.canonicalHeaders(headers)
        let canonical = Self.canonicalRequest(
            method: request.method, path: request.path, query: request.query, canonicalHeaders: canonicalHeaders,
            signedHeaders: signedHeaders, payloadHash: payloadHash)
        let toSign = stringToSign(canonicalRequest: canonical, timestamp: stamp)
        let signature = sign(toSign, day: String(stamp.prefix(8)))
        let authorization =
            "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope(day: String(stamp.prefix(8)))), "
            + "SignedHeaders=\(signedHeaders), Signature=\(signature)"
        headers.append((name: "Authorization", value: authorization))
        return Signed(canonicalRequest: canonical, stringToSign: toSign, signature: signature, headers: headers, query: request.query)
    }

    /// Signs into the query (a presigned URL), valid `expires` seconds from `date` (S3
    /// allows up to 604800, 7 days). The payload is unsigned, as S3 requires of a URL.
    public func presign(_ request: Request, expires: Int, date: Date, payloadHash: String = unsignedPayload) -> Signed {
        let stamp = Self.timestamp(date)
        let day = String(stamp.prefix(8))
        let (canonicalHeaders, signedHeaders) = Self.canonicalHeaders(request.headers)
        var query = request.query
        query.append((name: "X-Amz-Algorithm", value: Self.algorithm))
        query.append((name: "X-Amz-Credential", value: "\(credentials.accessKeyID)/\(scope(day: day))"))
        query.append((name: "X-Amz-Date", value: stamp))
        query.append((name: "X-Amz-Expires", value: String(expires)))
        if let token = credentials.sessionToken { query.append((name: "X-Amz-Security-Token", value: token)) }
        query.append((name: "X-Amz-SignedHeaders", value: signedHeaders))
        let canonical = Self.canonicalRequest(
            method: request.method, path: request.path, query: query, canonicalHeaders: canonicalHeaders, signedHeaders: signedHeaders,
            payloadHash: payloadHash)
        let toSign = stringToSign(canonicalRequest: canonical, timestamp: stamp)
        let signature = sign(toSign, day: day)
        query.append((name: "X-Amz-Signature", value: signature))
        return Signed(canonicalRequest: canonical, stringToSign: toSign, signature: signature, headers: request.headers, query: query)
    }

    // MARK: The steps

    static func canonicalRequest(
        method: String, path: String, query: [(name: String, value: String)], canonicalHeaders: String, signedHeaders: String,
        payloadHash: String
    ) -> String {
        [method, encodePath(path), canonicalQuery(query), canonicalHeaders, signedHeaders, payloadHash].joined(separator: "\n")
    }

    /// Names and values encoded, sorted by name and then value (as bytes, which the encoded
    /// ASCII strings compare as).
    static func canonicalQuery(_ query: [(name: String, value: String)]) -> String {
        var encoded: [(name: String, value: String)] = []
        for item in query { encoded.append((name: encode(item.name, keepSlash: false), value: encode(item.value, keepSlash: false))) }
        encoded.sort { lhs, rhs in lhs.name == rhs.name ? lhs.value < rhs.value : lhs.name < rhs.name }
        var parts: [String] = []
        for item in encoded { parts.append(item.name + "=" + item.value) }
        return parts.joined(separator: "&")
    }

    /// Each header once, lowercased and sorted, its values (trimmed, runs of white space made
    /// one space) joined by "," in the order given; and the signed headers' list. The first
    /// ends with its own newline, as the canonical request's blank line after it needs.
    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> (canonical: String, signed: String) {
        var values: [String: [String]] = [:]
        for header in headers {
            values[header.name.lowercased(), default: []].append(normalizeValue(header.value))
        }
        let names = values.keys.sorted()
        let canonical = names.map { "\($0):\(values[$0, default: []].joined(separator: ","))\n" }.joined()
        return (canonical, names.joined(separator: ";"))
    }

    static func normalizeValue(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }

    func stringToSign(canonicalRequest: String, timestamp: String) -> String {
        [Self.algorithm, timestamp, scope(day: String(timestamp.prefix(8))), Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))]
            .joined(separator: "\n")
    }

    func scope(day: String) -> String { "\(day)/\(region)/\(service)/aws4_request" }

    /// The signing key is derived from the secret, day, region and service (AWS's HMAC chain);
    /// the signature is its HMAC of the string to sign.
    func sign(_ stringToSign: String, day: String) -> String {
        var key = SymmetricKey(data: Data(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    // MARK: Encoding

    static func encodePath(_ path: String) -> String { encode(path.isEmpty ? "/" : path, keepSlash: true) }

    /// RFC 3986 percent-encoding of the UTF-8 bytes, as AWS defines it: unreserved bytes kept,
    /// every other byte `%XX` in upper-case hex.
    public static func encode(_ text: String, keepSlash: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepSlash:
                out.append("/")
            default:
                out.append("%")
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return out
    }

    static let hexDigits: [Character] = Array("0123456789ABCDEF")
    static let lowerHexDigits: [Character] = Array("0123456789abcdef")

    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out = ""
        for byte in bytes {
            out.append(lowerHexDigits[Int(byte >> 4)])
            out.append(lowerHexDigits[Int(byte & 0x0F)])
        }
        return out
    }

    static func hex(_ digest: SHA256.Digest) -> String { hex(Array(digest)) }
    static func hex(_ code: HMAC<SHA256>.MAC) -> String { hex(Array(code)) }

    /// The body's SHA-256 in hex, for `payloadHash`.
    public static func payloadHash(_ body: some DataProtocol) -> String { hex(SHA256.hash(data: body)) }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC, computed from the seconds since 1970 (no formatter, no
    /// locale or calendar to get wrong).
    public static func timestamp(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)\(two(month))\(two(day))T\(two(secondOfDay / 3600))\(two(secondOfDay / 60 % 60))\(two(secondOfDay % 60))Z"
    }
}
