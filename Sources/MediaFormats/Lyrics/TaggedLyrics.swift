/// A song's words as a file's tags hold them: plain text, or LRC text (`[mm:ss.xx]` before
/// each line) when the tag is synced (ID3 SYLT is turned into LRC here, so every synced form
/// is one text). The language is the tag's, where it has one (ID3's three letters).
public struct TaggedLyrics: Sendable, Equatable {
    public var text: String
    public var language: String?

    public init(text: String, language: String? = nil) {
        self.text = text
        self.language = language
    }

    /// The most text kept of one song's lyrics: far more than any song, and a tag that says
    /// more is cut rather than stored whole.
    public static let maxCharacters = 64 * 1024

    /// Lyrics from a tag's text, nil when blank; cut at `maxCharacters`.
    public static func make(_ text: String?, language: String? = nil) -> TaggedLyrics? {
        guard let text, !text.allSatisfy({ $0.isWhitespace || $0 == "\0" }) else { return nil }
        let lines = text.prefix(maxCharacters).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let lang = language.map { LRC.trimmed(Substring($0.filter { $0.isLetter })).lowercased() }
        return TaggedLyrics(text: LRC.trimmed(Substring(lines.joined(separator: "\n"))), language: lang?.isEmpty == false ? lang : nil)
    }

    /// Whether the text is LRC: a line starting with a `[mm:ss` time.
    public var isSynced: Bool { !LRC.lines(text).isEmpty }

    /// Synced lyrics as LRC text, from times in milliseconds and their lines.
    static func lrc(_ lines: [(millis: Int, text: String)]) -> String {
        lines.map { line in
            let minutes = line.millis / 60_000
            let seconds = (line.millis % 60_000) / 1000
            let hundredths = (line.millis % 1000) / 10
            return "[" + pad(minutes) + ":" + pad(seconds) + "." + pad(hundredths) + "]" + line.text
        }.joined(separator: "\n")
    }

    private static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

/// LRC text's timed lines (`[mm:ss]`, `[mm:ss.x]`, `[mm:ss.xx]`, `[mm:ss.xxx]`, several
/// times before one line allowed), in time order; tags such as `[ar:…]` and `[offset:…]` are
/// not lines.
public enum LRC {
    public struct Line: Sendable, Equatable {
        public let millis: Int
        public let text: String
    }

    public static func lines(_ text: String) -> [Line] {
        var out: [Line] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var rest = Substring(raw)
            var times: [Int] = []
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                guard let millis = time(rest[rest.index(after: rest.startIndex)..<close]) else { break }
                times.append(millis)
                rest = rest[rest.index(after: close)...]
            }
            let words = trimmed(rest)
            for millis in times { out.append(Line(millis: millis, text: words)) }
        }
        return out.enumerated().sorted { ($0.element.millis, $0.offset) < ($1.element.millis, $1.offset) }.map(\.element)
    }

    /// The `[offset:+/-ms]` tag: positive shows lines sooner.
    public static func offset(_ text: String) -> Int? {
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = trimmed(raw).lowercased()
            guard line.hasPrefix("[offset:"), line.hasSuffix("]") else { continue }
            let value = trimmed(line.dropFirst(8).dropLast())
            return Int(value.hasPrefix("+") ? String(value.dropFirst()) : value)
        }
        return nil
    }

    /// Text without the white space around it.
    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    static func time(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let minutes = Int(parts[0]), minutes >= 0, minutes < 10_000 else { return nil }
        let secondParts = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(secondParts.count), secondParts[0].count == 2, let seconds = Int(secondParts[0]), seconds < 60 else { return nil }
        var millis = (minutes * 60 + seconds) * 1000
        if secondParts.count == 2 {
            let fraction = secondParts[1]
            guard (1...3).contains(fraction.count), fraction.allSatisfy(\.isASCII), let value = Int(fraction) else { return nil }
            millis += value * [100, 10, 1][fraction.count - 1]
        }
        return millis
    }
}
