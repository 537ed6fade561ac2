/// The head of an answer from a radio stream server: an HTTP/1.x status line, or SHOUTcast
/// v1's "ICY 200 OK", then header lines up to a blank line.
///
/// Stream servers are older and looser than web servers: SHOUTcast v1 answers "ICY", some
/// end lines with a bare LF, header names come in any case. The parser takes all of that,
/// bounds the head's size, and refuses anything else as `malformed`.
public struct StreamResponseHead: Sendable, Equatable {
    public var status: Int
    /// True for SHOUTcast v1's "ICY nnn" status line.
    public var isICY: Bool
    /// Header values by lower-cased name; a repeated header's values joined with ", ".
    public var headers: [String: String]

    public init(status: Int, isICY: Bool = false, headers: [String: String] = [:]) {
        self.status = status
        self.isICY = isICY
        self.headers = headers
    }

    /// No stream server's head comes near this; a longer one is refused, not buffered.
    public static let maximumSize = 16 * 1024

    /// The media type without its parameters, lower-cased ("audio/mpeg").
    public var contentType: String? {
        headers["content-type"].map { $0.split(separator: ";").first.map(String.init) ?? "" }
            .map { $0.trimmingCharacters(in: " \t").lowercased() }
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    /// ICY metadata comes every this many audio bytes (`icy-metaint`), when the server
    /// interleaves it.
    public var metadataInterval: Int? {
        guard let text = headers["icy-metaint"], let value = Int(text.trimmingCharacters(in: " \t")), value > 0, value <= 1 << 20 else { return nil }
        return value
    }

    public var isChunked: Bool { headers["transfer-encoding"]?.lowercased().contains("chunked") ?? false }

    /// The parsed head and how many bytes it took, or nil while the blank line has not
    /// arrived yet.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(MediaFormatError) -> (head: StreamResponseHead, length: Int)? {
        guard let end = headEnd(bytes) else {
            if bytes.count > maximumSize { throw MediaFormatError(.malformed, at: maximumSize, "the answer's head is longer than \(maximumSize) bytes") }
            return nil
        }
        guard end.headLength <= maximumSize else {
            throw MediaFormatError(.malformed, at: maximumSize, "the answer's head is longer than \(maximumSize) bytes")
        }
        var lines = bytes[bytes.startIndex..<(bytes.startIndex + end.textLength)].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { line in line.last == UInt8(ascii: "\r") ? line.dropLast() : line }
        guard !lines.isEmpty else { throw MediaFormatError(.malformed, at: 0, "the answer has no status line") }
        let statusLine = lines.removeFirst()
        var head = try parseStatus(statusLine)
        var offset = statusLine.count + 1
        for line in lines {
            defer { offset += line.count + 1 }
            if line.isEmpty { continue }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
                throw MediaFormatError(.malformed, at: offset, "a header line has no name")
            }
            let name = line[line.startIndex..<colon]
            guard name.allSatisfy(isTokenByte) else { throw MediaFormatError(.malformed, at: offset, "a header name has a character HTTP does not allow") }
            let value = line[(colon + 1)...]
            guard !value.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                throw MediaFormatError(.malformed, at: offset, "a header value has a control character")
            }
            let key = latin1String(name).lowercased()
            let text = decodeValue(value).trimmingCharacters(in: " \t")
            if let earlier = head.headers[key] { head.headers[key] = earlier + ", " + text } else { head.headers[key] = text }
        }
        return (head, end.headLength)
    }

    /// Where the head ends: the text before the blank line, and the head with it.
    static func headEnd(_ bytes: ArraySlice<UInt8>) -> (textLength: Int, headLength: Int)? {
        var index = bytes.startIndex
        let limit = min(bytes.endIndex, bytes.startIndex + maximumSize + 4)
        while index < limit {
            if bytes[index] == UInt8(ascii: "\n") {
                let next = index + 1
                if next < bytes.endIndex, bytes[next] == UInt8(ascii: "\n") { return (index - bytes.startIndex, next + 1 - bytes.startIndex) }
                if next + 1 < bytes.endIndex, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") {
                    return (index - bytes.startIndex, next + 2 - bytes.startIndex)
                }
            }
            index += 1
        }
        return nil
    }

    static func parseStatus(_ line: ArraySlice<UInt8>) throws(MediaFormatError) -> StreamResponseHead {
        let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2 else { throw MediaFormatError(.malformed, at: 0, "the status line is not 'HTTP/1.x nnn' or 'ICY nnn'") }
        let version = latin1String(parts[0])
        let isICY = version == "ICY"
        guard isICY || version == "HTTP/1.0" || version == "HTTP/1.1" else {
            throw MediaFormatError(.malformed, at: 0, "the status line is not 'HTTP/1.x nnn' or 'ICY nnn'")
        }
        guard parts[1].count == 3, parts[1].allSatisfy({ (0x30...0x39).contains($0) }), let status = Int(latin1String(parts[1])), status >= 100 else {
            throw MediaFormatError(.malformed, at: version.utf8.count + 1, "the status code is not three digits")
        }
        return StreamResponseHead(status: status, isICY: isICY)
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Header values are ASCII in practice; icy-name is sometimes UTF-8, sometimes Latin-1.
    static func decodeValue(_ bytes: ArraySlice<UInt8>) -> String {
        String(validating: bytes, as: UTF8.self) ?? latin1String(bytes)
    }
}
