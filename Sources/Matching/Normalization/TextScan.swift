import Foundation

/// The few patterns the normalizer looks for, scanned by hand over Unicode scalars. They
/// were regular expressions, and Foundation on Linux compiles one on every call: with a
/// room full of phones guessing, that was a tenth of the server's time.
enum TextScan {
    /// `\s(word)\s` for one of `words` (regular-expression `\s`: any white space): the range
    /// from the space before the first such word to the space after it.
    static func separator(_ words: Set<String>, in text: String) -> Range<String.Index>? {
        let scalars = text.unicodeScalars
        var i = scalars.startIndex
        while i < scalars.endIndex {
            if Whitespace.isWhiteSpace(scalars[i]) {
                let start = scalars.index(after: i)
                var end = start
                while end < scalars.endIndex, !Whitespace.isWhiteSpace(scalars[end]) { end = scalars.index(after: end) }
                if end < scalars.endIndex, end > start, words.contains(String(scalars[start..<end])) {
                    return i..<scalars.index(after: end)
                }
            }
            i = scalars.index(after: i)
        }
        return nil
    }

    /// `^\s*(word)\s+` for one of `words`: where the text after them begins.
    static func afterLeadingWord(_ words: Set<String>, in text: String) -> String.Index? {
        let scalars = text.unicodeScalars
        var i = scalars.startIndex
        while i < scalars.endIndex, Whitespace.isWhiteSpace(scalars[i]) { i = scalars.index(after: i) }
        let start = i
        while i < scalars.endIndex, !Whitespace.isWhiteSpace(scalars[i]) { i = scalars.index(after: i) }
        guard i < scalars.endIndex, i > start, words.contains(String(scalars[start..<i])) else { return nil }
        while i < scalars.endIndex, Whitespace.isWhiteSpace(scalars[i]) { i = scalars.index(after: i) }
        return i
    }

    /// `[,:]?\s*(pt\.?|part)\s*([0-9]+|[ivx]+)\s*$`, the leftmost match: a part number at the
    /// very end ("Another Brick in the Wall, Pt. 2").
    static func trailingPart(in text: String) -> Range<String.Index>? {
        let s = text.unicodeScalars
        var i = s.endIndex
        func before(_ index: String.Index) -> Unicode.Scalar? { index > s.startIndex ? s[s.index(before: index)] : nil }
        func skipSpaceBack() { while let c = before(i), Whitespace.isWhiteSpace(c) { i = s.index(before: i) } }
        skipSpaceBack()
        // The number: ASCII digits, or else roman numeral letters.
        let numberEnd = i
        let isDigit = { (c: Unicode.Scalar) in ("0"..."9").contains(c) }
        let isRoman = { (c: Unicode.Scalar) in c == "i" || c == "v" || c == "x" }
        guard let last = before(i) else { return nil }
        let inNumber = isDigit(last) ? isDigit : isRoman(last) ? isRoman : nil
        guard let inNumber else { return nil }
        while let c = before(i), inNumber(c) { i = s.index(before: i) }
        guard i < numberEnd else { return nil }
        skipSpaceBack()
        // The word: "pt.", "pt" or "part" ending here.
        let head = s[s.startIndex..<i].reversed()
        guard let word = ["pt.", "pt", "part"].first(where: { head.starts(with: $0.unicodeScalars.reversed()) }) else { return nil }
        for _ in 0..<word.unicodeScalars.count { i = s.index(before: i) }
        skipSpaceBack()
        if let c = before(i), c == "," || c == ":" { i = s.index(before: i) }
        return i..<s.endIndex
    }

    /// The last occurrence of `needle`.
    static func lastRange(of needle: String, in text: String) -> Range<String.Index>? {
        let n = Array(needle.unicodeScalars)
        let s = text.unicodeScalars
        guard !n.isEmpty else { return nil }
        var end = s.endIndex
        while end > s.startIndex {
            var i = end
            var k = n.count
            while k > 0, i > s.startIndex, s[s.index(before: i)] == n[k - 1] {
                i = s.index(before: i)
                k -= 1
            }
            if k == 0 { return i..<end }
            end = s.index(before: end)
        }
        return nil
    }

    /// Without leading and trailing spaces and tabs (Foundation's `.whitespaces`).
    static func trimmed(_ text: some StringProtocol) -> String { Whitespace.trimmed(text, where: Whitespace.isSpace) }
}
