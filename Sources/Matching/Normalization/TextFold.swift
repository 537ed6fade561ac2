import Foundation

/// Accents, case, width and compatibility forms folded: Foundation's diacritic-, case- and
/// width-insensitive folding, then NFKD with the combining marks dropped, then the letters
/// that do not decompose spelled out ("ß" as "ss", "ø" as "o").
///
/// Foundation does this slowly on Linux (a bridged NSString and seven passes, about a
/// hundred microseconds for "Beyoncé"), and a room full of phones sends a thousand guesses a
/// second, each judged under its game's lock. Folding works scalar by scalar here, so the
/// scalars of the scripts most music is tagged in (Latin, with its accents and combining marks,
/// and general punctuation) are folded once each by Foundation into a table; text with a
/// scalar outside it takes Foundation's way whole. `TextFoldTests` holds the two to the same
/// results.
enum TextFold {
    static func fold(_ text: String) -> String {
        // Plain ASCII has no accents, widths or compatibility forms: folding is lowercasing.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                out.append(lowercased(scalar))
            } else if let folded = table.folded(scalar) {
                out.append(contentsOf: folded.unicodeScalars)
            } else {
                return foundationFold(text)
            }
        }
        return String(out)
    }

    @inline(__always)
    static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value) | 0x20) : scalar
    }

    /// The whole text through Foundation: the reference, and the way for scripts outside the table.
    static func foundationFold(_ text: String) -> String {
        text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .decomposedStringWithCompatibilityMapping
            .unicodeScalars.filter { !(0x300...0x36F).contains($0.value) }
            .reduce(into: "") { $0.unicodeScalars.append($1) }
            .replacingOccurrences(of: "ß", with: "ss")
            .replacingOccurrences(of: "æ", with: "ae")
            .replacingOccurrences(of: "ø", with: "o")
            .replacingOccurrences(of: "œ", with: "oe")
            .replacingOccurrences(of: "ł", with: "l")
            .replacingOccurrences(of: "đ", with: "d")
    }

    /// Latin-1 Supplement, Latin Extended-A and -B, the combining diacritical marks, Latin
    /// Extended Additional (Vietnamese) and general punctuation.
    static let tableRanges: [ClosedRange<UInt32>] = [0x80...0x24F, 0x300...0x36F, 0x1E00...0x1EFF, 0x2000...0x206F]

    /// Built on first use (about a tenth of a second, once; `MusicTextNormalizer.prepare`).
    static let table = Table(ranges: tableRanges)

    struct Table: Sendable {
        private let ranges: [(range: ClosedRange<UInt32>, folded: [String?])]

        init(ranges: [ClosedRange<UInt32>]) {
            self.ranges = ranges.map { range in
                (range, range.map { value in Unicode.Scalar(value).flatMap(Self.foldAlone) })
            }
        }

        /// The scalar's folding, when it is the same wherever the scalar stands. Some are
        /// not: a lone combining mark or joiner folds to itself, but goes with the letter
        /// before it (U+0345 alone is "ι", after a letter nothing). Those stay out, and text
        /// with them takes Foundation's way.
        private static func foldAlone(_ scalar: Unicode.Scalar) -> String? {
            let alone = String(String.UnicodeScalarView([scalar]))
            let folded = TextFold.foundationFold(alone)
            let contexts = [("a", "a", "a", "a"), ("é", "", "e", ""), ("", "é", "", "e"), ("", "\u{301}", "", ""), ("ß", " ", "ss", " ")]
            for (before, after, foldedBefore, foldedAfter) in contexts
            where TextFold.foundationFold(before + alone + after) != foldedBefore + folded + foldedAfter {
                return nil
            }
            return folded
        }

        func folded(_ scalar: Unicode.Scalar) -> String? {
            for entry in ranges where entry.range.contains(scalar.value) {
                return entry.folded[Int(scalar.value - entry.range.lowerBound)]
            }
            return nil
        }
    }
}
