import Foundation
import JukeCore
import Testing

@testable import Matching

/// The hand-written scanners against the regular expressions they replace, on texts built
/// from the pieces those patterns care about, so every corner (double spaces, dots, commas,
/// roman numerals, a pattern word inside another word) comes up thousands of times.
@Suite(.timeLimit(.minutes(5))) struct TextScanTests {
    static let pieces = [
        " ", "  ", "\t", "feat", "feat.", "ft", "ft.", "featuring", "with", "pt", "pt.", "part", "apart", ",", ":", "2", "12", "iv", "x",
        "vi", "love", "(", ")", "[", "]", " - ", "-", "é", "\u{00A0}",
    ]

    static func texts(count: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 1...7, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
        }
    }

    static func regex(_ pattern: String, _ text: String) -> Range<String.Index>? {
        text.range(of: pattern, options: .regularExpression)
    }

    @Test func separatorsMatchTheRegularExpressions() {
        for text in Self.texts(count: 3000, seed: 1) {
            #expect(
                TextScan.separator(MusicTextNormalizer.featuringWords, in: text) == Self.regex(#"\s(feat\.?|ft\.?|featuring)\s"#, text),
                "\(text.debugDescription)")
            #expect(TextScan.separator(["with"], in: text) == Self.regex(#"\swith\s"#, text), "\(text.debugDescription)")
        }
    }

    @Test func leadingWordsMatchTheRegularExpression() {
        for text in Self.texts(count: 3000, seed: 2) {
            let expected = Self.regex(#"^\s*(feat\.?|ft\.?|featuring|with)\s+"#, text)?.upperBound
            #expect(TextScan.afterLeadingWord(MusicTextNormalizer.featuringWords.union(["with"]), in: text) == expected, "\(text.debugDescription)")
        }
    }

    @Test func trailingPartsMatchTheRegularExpression() {
        for text in Self.texts(count: 3000, seed: 3) + ["Another Brick in the Wall, Pt. 2", "Money Part IV", "ptpt 2", "pt 2 12"] {
            #expect(TextScan.trailingPart(in: text) == Self.regex(#"[,:]?\s*(pt\.?|part)\s*([0-9]+|[ivx]+)\s*$"#, text), "\(text.debugDescription)")
        }
    }

    @Test func trimmingAndSearchingFromTheEndMatchFoundation() {
        for text in Self.texts(count: 3000, seed: 4) {
            #expect(TextScan.trimmed(text) == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(TextScan.lastRange(of: " - ", in: text) == text.range(of: " - ", options: .backwards), "\(text.debugDescription)")
        }
    }
}
