import Foundation
import JukeCore
import Testing

@testable import Matching

/// The folding table and the hand-written white space against Foundation, which they stand in
/// for: on every scalar of the table, on the judged table's texts, and on random text mixing
/// ASCII, the table's scalars, combining sequences and scalars outside it.
@Suite(.timeLimit(.minutes(5))) struct TextFoldTests {
    static let tableScalars: [Unicode.Scalar] = TextFold.tableRanges.flatMap { $0.compactMap(Unicode.Scalar.init) }

    @Test func everyScalarOfTheTableFoldsAsFoundationFoldsIt() {
        for scalar in Self.tableScalars + ["\u{345}", "\u{200C}", "\u{200D}"] {
            let text = String(Character(scalar))
            #expect(TextFold.fold(text) == TextFold.foundationFold(text), "U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test func mixedTextFoldsAsFoundationFoldsIt() {
        var random = SplitMix64(seed: 7)
        let others: [Unicode.Scalar] = ["ﬁ", "Ⅻ", "Ａ", "ß", "İ", "Σ", "ς", "Я", "日", "🎵", "\u{301}", "\u{308}", "\u{0}", "\u{FFFF}"]
        let pool: [Unicode.Scalar] = Self.tableScalars + others + "Beyoncé Sigur Rós AC/DC Für Elise Motörhead".unicodeScalars
        for _ in 0..<5000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &random) { text.append(pool[Int.random(in: 0..<pool.count, using: &random)]) }
            let string = String(text)
            #expect(TextFold.fold(string) == TextFold.foundationFold(string), "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        for text in ["Beyoncé", "Sigur Rós", "Motörhead", "Œuvre", "Łódź", "Straße", "Ærø", "Đorđe", "Việt Nam", "e\u{301}", "Ｆｕｌｌ"] {
            #expect(TextFold.fold(text) == TextFold.foundationFold(text), "\(text)")
        }
    }

    @Test func whiteSpaceIsFoundationsOnEveryScalar() {
        var differ: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if Whitespace.isSpaceOrNewline(scalar) != CharacterSet.whitespacesAndNewlines.contains(scalar) {
                differ.append("and newlines U+\(String(value, radix: 16))")
            }
            if Whitespace.isSpace(scalar) != CharacterSet.whitespaces.contains(scalar) { differ.append("U+\(String(value, radix: 16))") }
        }
        #expect(differ.isEmpty, "\(differ)")
        for text in ["", " ", " a ", "\u{200B}a\u{A0}", "\n\t x y \r\n", "\u{3000}日本\u{2029}"] {
            #expect(Whitespace.trimmed(text) == text.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(TextScan.trimmed(text) == text.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test func percentagesPrintAsFormattedPrintDoes() {
        for value in [0, 0.4, 0.5, 1.5, 2.5, 79.5, 80.49, 80.5, 81.5, 99.5, 100] {
            #expect(GuessJudge.percent(value) == String(format: "%.0f", value), "\(value)")
        }
    }
}
