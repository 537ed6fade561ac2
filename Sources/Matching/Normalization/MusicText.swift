import Foundation

/// A title or artist name reduced to what decides whether two of them are the same:
/// accents, case, quotes, punctuation and leading articles gone; "&", "+" and "and" alike;
/// featured artists and trailing version tags ("(Remastered 2011)", "- Live at Wembley")
/// taken out and kept beside it; number words as digits.
public struct MusicText: Sendable, Equatable {
    /// The comparable form: lower-case ASCII-folded words joined by single spaces.
    public let key: String
    public let words: [String]
    /// Artists credited with "feat.", "ft.", "featuring" or "with", normalized.
    public let featured: Set<String>
    /// Version tags removed from the end, outermost last.
    public let versions: [VersionTag]
    /// "Pt. 2", "Part II": kept, because part 2 is another song than part 1.
    public let part: Int?

    public var isOriginal: Bool { versions.allSatisfy { !$0.kind.isDifferentRecording } }
}

public struct VersionTag: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case live, remix, karaoke, cover, acoustic, instrumental, demo, remaster, edit, other

        /// Kinds that are another recording, not the same one re-released or trimmed.
        public var isDifferentRecording: Bool {
            switch self {
            case .live, .remix, .karaoke, .cover, .acoustic, .instrumental, .demo: true
            case .remaster, .edit, .other: false
            }
        }
    }

    public let kind: Kind
    /// The tag's own words, normalized ("remastered 2011").
    public let text: String
}

public enum MusicTextNormalizer {
    public static func title(_ raw: String) -> MusicText { normalize(raw, isArtist: false) }
    public static func artist(_ raw: String) -> MusicText { normalize(raw, isArtist: true) }

    /// Accents, case, width and compatibility forms folded (NFKD, then marks dropped).
    public static func fold(_ text: String) -> String { TextFold.fold(text) }

    /// Builds the folding table now (a tenth of a second), rather than at the first text
    /// that needs it.
    public static func prepare() { _ = TextFold.table }

    static func normalize(_ raw: String, isArtist: Bool) -> MusicText {
        var text = fold(raw)
        if text.utf8.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "`") }) { text = plainQuotesAndDashes(text) }
        var featured: Set<String> = []
        var versions: [VersionTag] = []
        var part: Int?

        // Peel trailing tags: "(...)", "[...]" and " - ..." from the end, repeatedly.
        while true {
            guard let (inner, rest) = trailingTag(text) else { break }
            if let names = featuring(inner) {
                featured.formUnion(names)
            } else if let n = partNumber(inner) {
                part = part ?? n
            } else if let kind = versionKind(inner) {
                versions.insert(VersionTag(kind: kind, text: words(inner).joined(separator: " ")), at: 0)
            } else {
                break  // an ordinary parenthetical belongs to the title
            }
            text = rest
        }
        // "Song feat. Someone" without brackets, and "Artist ft. Other" in artist fields.
        // (Scanned by hand: Foundation's regular expressions are compiled on every call on
        // Linux, and a room full of phones sends a thousand guesses a second.)
        if let range = TextScan.separator(Self.featuringWords, in: text) {
            featured.formUnion(splitNames(String(text[range.upperBound...])))
            text = String(text[..<range.lowerBound])
        }
        if isArtist, let range = TextScan.separator(["with"], in: text) {
            featured.formUnion(splitNames(String(text[range.upperBound...])))
            text = String(text[..<range.lowerBound])
        }
        // A part number at the very end: "Another Brick in the Wall, Pt. 2".
        if let range = TextScan.trailingPart(in: text), let n = partNumber(String(text[range])) {
            part = part ?? n
            text = String(text[..<range.lowerBound])
        }
        var list = words(text)
        if list.count > 1, articles.contains(list[0]) { list.removeFirst() }
        return MusicText(key: list.joined(separator: " "), words: list, featured: featured, versions: versions, part: part)
    }

    /// Curly quotes and the backtick as straight quotes, en and em dashes as hyphens.
    static func plainQuotesAndDashes(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{2018}", "\u{2019}", "`": out.append("'")
            case "\u{201C}", "\u{201D}": out.append("\"")
            case "\u{2013}", "\u{2014}": out.append("-")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Letters and digits, as `CharacterSet.alphanumerics` has them, without its lookup for ASCII.
    @inline(__always)
    static func isAlphanumeric(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case ..<0x80: false
        default: CharacterSet.alphanumerics.contains(s)
        }
    }

    /// Words: letters and digits; "&" and "+" become "and"; "AC/DC" and "don't" stay whole;
    /// symbols written for letters read as the letters ("Ke$ha", "P!nk", "A$AP"); number
    /// words become digits, whole numbers as they are said ("twenty one" 21, "one eighty
    /// two" 182, "nineteen seventy five" 1975).
    static func words(_ text: String) -> [String] {
        var out: [(word: String, spelled: Bool)] = []
        var current = ""
        let scalars = Array(text.unicodeScalars)
        func flush() {
            if !current.isEmpty {
                if let digits = numberWords[current] { out.append((digits, true)) } else { out.append((current, false)) }
            }
            current = ""
        }
        func isLetter(_ index: Int) -> Bool {
            guard scalars.indices.contains(index) else { return false }
            let s = scalars[index]
            return isAlphanumeric(s) && !(0x30...0x39).contains(s.value)
        }
        for (i, s) in scalars.enumerated() {
            if isAlphanumeric(s) {
                current.unicodeScalars.append(s)
            } else if let letter = letterSymbols[s], isLetter(i - 1) && isLetter(i + 1) || s == "$" && (isLetter(i - 1) || isLetter(i + 1)) {
                current.unicodeScalars.append(letter)  // Ke$ha, P!nk, $uicideboy$
            } else if s == "&" || s == "+" {
                flush()
                out.append(("and", false))
            } else if (s == "'" || s == "/" || s == "." || s == "-"), !current.isEmpty, i + 1 < scalars.count,
                isAlphanumeric(scalars[i + 1]), s != "-" || current.count == 1
            {
                continue  // inside a word: AC/DC, don't, R.E.M., A-ha
            } else {
                flush()
            }
        }
        flush()
        return spokenNumbers(out)
    }

    /// Symbols people write for letters, read as the letter between letters ("$" also at a
    /// word's edge: "$uicideboy$").
    static let letterSymbols: [Unicode.Scalar: Unicode.Scalar] = ["$": "s", "!": "i", "@": "a"]

    /// Runs of number words read as the numbers they say: tens and units together ("twenty
    /// one" 21), "hundred" multiplying ("two hundred" 200), and a number said in pairs as its
    /// digits ("one eighty two" 182, "nineteen seventy five" 1975). Units in a row stay apart
    /// ("one two three"), as do digits typed as digits.
    static func spokenNumbers(_ tokens: [(word: String, spelled: Bool)]) -> [String] {
        var out: [String] = []
        var groups: [Int] = []
        func close() {
            out += groups.map(String.init)
            groups = []
        }
        var i = 0
        while i < tokens.count {
            let (word, spelled) = tokens[i]
            guard spelled, var value = Int(word) else {
                close()
                out.append(word)
                i += 1
                continue
            }
            // A ten and a unit: one group.
            if value >= 20, value % 10 == 0, value < 100, i + 1 < tokens.count, tokens[i + 1].spelled, let unit = Int(tokens[i + 1].word),
                (1...9).contains(unit)
            {
                value += unit
                i += 1
            }
            if value == 100, let last = groups.last, last < 10 {
                groups[groups.count - 1] = last * 100
            } else if let last = groups.last, last % 100 == 0, last >= 100, value < 100 {
                groups[groups.count - 1] = last + value  // "two hundred (and) five"
            } else if let last = groups.last, value >= 10, value < 100, last < 10 || (10...29).contains(last) {
                // Said in pairs: 1-82, 19-75, 20-24 (but "fifty fifty" is two numbers).
                groups[groups.count - 1] = Int("\(last)\(value)") ?? last
            } else {
                groups.append(value)
            }
            i += 1
        }
        close()
        return out
    }

    static func trailingTag(_ text: String) -> (inner: String, rest: String)? {
        let trimmed = TextScan.trimmed(text)
        for (open, close) in [("(" as Unicode.Scalar, ")" as Unicode.Scalar), ("[", "]")] where trimmed.unicodeScalars.last == close {
            guard let start = trimmed.unicodeScalars.lastIndex(of: open) else { return nil }
            let rest = TextScan.trimmed(trimmed[..<start])
            // A leading parenthetical is part of the title: "(Love Is Like A) Heat Wave".
            if rest.isEmpty { return nil }
            let inner = String(trimmed.unicodeScalars[trimmed.unicodeScalars.index(after: start)..<trimmed.unicodeScalars.index(before: trimmed.endIndex)])
            return (inner, rest)
        }
        if let dash = TextScan.lastRange(of: " - ", in: trimmed) {
            let rest = TextScan.trimmed(trimmed[..<dash.lowerBound])
            if rest.isEmpty { return nil }
            return (String(trimmed[dash.upperBound...]), rest)
        }
        return nil
    }

    static func featuring(_ inner: String) -> Set<String>? {
        guard let start = TextScan.afterLeadingWord(Self.featuringWords.union(["with"]), in: inner) else { return nil }
        return splitNames(String(inner[start...]))
    }

    static let featuringWords: Set<String> = ["feat", "feat.", "ft", "ft.", "featuring"]

    static func splitNames(_ text: String) -> Set<String> {
        let parts = text.replacingOccurrences(of: " & ", with: ",").replacingOccurrences(of: " and ", with: ",")
            .replacingOccurrences(of: " x ", with: ",").split(separator: ",")
        return Set(parts.map { words(String($0)).joined(separator: " ") }.filter { !$0.isEmpty })
    }

    static func partNumber(_ text: String) -> Int? {
        let w = words(text)
        guard w.count >= 2, ["pt", "part"].contains(w[w.count - 2]) else { return nil }
        if let n = Int(w[w.count - 1]) { return n }
        return romanNumerals[w[w.count - 1]]
    }

    static func versionKind(_ inner: String) -> VersionTag.Kind? {
        let w = Set(words(inner))
        if w.contains("karaoke") { return .karaoke }
        if w.contains("live") || w.contains("unplugged") { return .live }
        if w.contains("remix") || w.contains("mix") && !w.contains("mono") || w.contains("rmx") { return .remix }
        if w.contains("cover") || w.contains("tribute") { return .cover }
        if w.contains("acoustic") { return .acoustic }
        if w.contains("instrumental") { return .instrumental }
        if w.contains("demo") { return .demo }
        if w.contains("remaster") || w.contains("remastered") || w.contains("remasterizado") { return .remaster }
        if w.contains("edit") || w.contains("version") || w.contains("mono") || w.contains("stereo") || w.contains("single")
            || w.contains("explicit") || w.contains("clean") || w.contains("deluxe") || w.contains("bonus") || w.contains("anniversary")
            || w.contains("edition") || w.contains("extended") || w.contains("original")
        {
            return w.contains("edit") ? .edit : .other
        }
        return nil
    }

    /// Leading articles in the languages music is most often tagged in. Not Italian "i",
    /// which would eat the English "I" of "I Will Survive".
    static let articles: Set<String> = [
        "the", "a", "an", "le", "la", "les", "l", "el", "los", "las", "il", "lo", "gli", "der", "die", "das", "de", "het",
        "een", "o", "os", "as", "um", "uma",
    ]

    static let numberWords: [String: String] = [
        "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
        "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14", "fifteen": "15", "sixteen": "16",
        "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20", "thirty": "30", "forty": "40", "fifty": "50",
        "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90", "hundred": "100",
    ]

    static let romanNumerals: [String: Int] = ["i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10]
}
