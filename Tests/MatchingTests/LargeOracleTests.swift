import Foundation
import Testing

@testable import Matching

/// 100,000 pairs made afresh by rapidfuzz for each test run (Scripts/test.sh writes them with
/// Scripts/make-match-oracle.py --large and names the file in JUKE_MATCH_ORACLE): half
/// real-world titles and names typed with slips, half random strings in several alphabets and
/// lengths up to 180. Every `fuzz.ratio`, by the single-pair scorer and by the vectorized
/// matrix, and every Levenshtein distance and Jaro-Winkler similarity must be rapidfuzz's.
/// Without the file (a plain `swift test` on a machine without rapidfuzz) the test is
/// skipped, but in CI the file is required.
@Suite(.timeLimit(.minutes(5))) struct LargeOracleTests {
    struct Row: Sendable {
        let a: Scalars, b: Scalars
        let ratio: Double, levenshtein: Int, jaroWinkler: Double
    }

    static let path = ProcessInfo.processInfo.environment["JUKE_MATCH_ORACLE"]
    static let required = ProcessInfo.processInfo.environment["CI"] != nil

    static func rows() throws -> [Row] {
        let file = try #require(path, "CI runs need JUKE_MATCH_ORACLE (Scripts/test.sh makes it)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            try #require(f.count == 5, "bad oracle line: \(line)")
            return Row(
                a: String(f[0]).scalarValues, b: String(f[1]).scalarValues, ratio: try #require(Double(f[2])),
                levenshtein: try #require(Int(f[3])), jaroWinkler: try #require(Double(f[4])))
        }
    }

    @Test(.enabled(if: path != nil || required)) func everyScoreIsRapidFuzzs() async throws {
        // Tens of seconds of reading and scoring in a debug build, on a thread of its own: on
        // Swift's two cooperative threads it held one of them, and a live server test beside it
        // (whose server shares those threads) waited past its client's 20 s read timeout.
        let (count, mismatches) = try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        let rows = try Self.rows(); return (rows.count, Self.mismatches(rows))
                    })
            }.start()
        }
        #expect(count >= 100_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    static func mismatches(_ rows: [Row]) -> [String] {
        var mismatches: [String] = []
        for r in rows {
            if abs(Fuzz.ratio(r.a, r.b) - r.ratio) > 1e-9 { mismatches.append("ratio \(r.a) | \(r.b)") }
            if Levenshtein.distance(r.a, r.b) != r.levenshtein { mismatches.append("levenshtein \(r.a) | \(r.b)") }
            if abs(JaroWinkler.similarity(r.a, r.b) - r.jaroWinkler) > 1e-9 { mismatches.append("jaro-winkler \(r.a) | \(r.b)") }
        }
        // The matrix path, in blocks of 100 pairs: the diagonal of each block is the table's pairs.
        var start = 0
        while start < rows.count {
            let block = rows[start..<min(rows.count, start + 100)]
            let scores = IndelMatrix.ratios(queries: block.map(\.a), choices: block.map(\.b))
            for (i, r) in block.enumerated() where abs(scores[i * block.count + i] - r.ratio) > 1e-9 {
                mismatches.append("matrix ratio \(r.a) | \(r.b): \(scores[i * block.count + i]) vs \(r.ratio)")
            }
            start += 100
        }
        return mismatches
    }
}
