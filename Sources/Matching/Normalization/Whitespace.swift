/// White space, decided without Foundation. `CharacterSet` membership and the standard
/// library's Unicode property lookup are both slow next to a comparison, and every guess of a
/// room full of phones is trimmed and split into words; most of its characters are ASCII.
public enum Whitespace {
    /// Unicode's White_Space property (a regular expression's `\s`).
    @inline(__always)
    static func isWhiteSpace(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x80 ? s.value == 0x20 || (0x09...0x0D).contains(s.value) : s.properties.isWhitespace
    }

    /// Foundation's `.whitespacesAndNewlines`: White_Space, and the zero-width space.
    @inline(__always)
    static func isSpaceOrNewline(_ s: Unicode.Scalar) -> Bool { isWhiteSpace(s) || s.value == 0x200B }

    /// Foundation's `.whitespaces`: the space separators, the tab and the zero-width space;
    /// not line breaks.
    @inline(__always)
    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x20, 0x09, 0x200B: true
        case ..<0x80: false
        default: s.properties.generalCategory == .spaceSeparator
        }
    }

    /// `text` without leading and trailing white space and line breaks, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives it.
    public static func trimmed(_ text: some StringProtocol) -> String {
        trimmed(text, where: isSpaceOrNewline)
    }

    /// `trimmed` for a String, which is handed back as it is when it has nothing to trim (a
    /// feed's fields, a 2 kB show note among them, mostly have none): no copy.
    public static func trimmed(_ text: String) -> String {
        let bytes = text.utf8
        guard let first = bytes.first, let last = bytes.last else { return text }
        if first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F { return text }
        return trimmed(text[...], where: isSpaceOrNewline)
    }

    static func trimmed(_ text: some StringProtocol, where isBlank: (Unicode.Scalar) -> Bool) -> String {
        let s = Substring(text).unicodeScalars
        var start = s.startIndex
        var end = s.endIndex
        while start < end, isBlank(s[start]) { start = s.index(after: start) }
        while end > start, isBlank(s[s.index(before: end)]) { end = s.index(before: end) }
        return String(s[start..<end])
    }
}
