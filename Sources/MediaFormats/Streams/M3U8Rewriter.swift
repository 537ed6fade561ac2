/// The addresses in an M3U8 (HLS) playlist, each passed through `replace`: the URI lines, and
/// the `URI="…"` attributes of tag lines (EXT-X-KEY, EXT-X-MAP, EXT-X-MEDIA,
/// EXT-X-I-FRAME-STREAM-INF). Pure text work, so it can be fuzzed; resolving an address
/// against the playlist's own is the caller's (`replace` returns nil to keep one as it is).
public enum M3U8Rewriter {
    public static let maximumSize = 4 << 20

    /// The playlist with its addresses replaced, or nil when `body` is not an M3U8 playlist.
    public static func rewrite(_ body: ArraySlice<UInt8>, _ replace: (String) -> String?) -> String? {
        guard body.count <= maximumSize else { return nil }
        let text = String(decoding: body, as: UTF8.self)
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        guard trimmed.hasPrefix("#EXTM3U") else { return nil }
        var out: [String] = []
        for rawLine in trimmed.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = String(rawLine)
            if line.allSatisfy(\.isWhitespace) {
                out.append("")
            } else if line.hasPrefix("#") {
                out.append(attributes(line, replace))
            } else {
                let reference = line.trimmingCharacters(in: " \t")
                out.append(replace(reference) ?? reference)
            }
        }
        return out.joined(separator: "\n")
    }

    static func attributes(_ line: String, _ replace: (String) -> String?) -> String {
        var result = ""
        var rest = Substring(line)
        while let start = rest.firstRange(of: "URI=\"") {
            result += rest[rest.startIndex..<start.upperBound]
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            let reference = String(rest[rest.startIndex..<end])
            result += replace(reference) ?? reference
            rest = rest[end...]
        }
        return result + rest
    }
}
