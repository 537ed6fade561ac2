import Foundation
import Testing

@testable import Matching

/// The judged table: guesses a person has judged, with the reason, kept as data.
@Suite(.timeLimit(.minutes(5))) struct JudgedGuessTests {
    struct Row {
        let field: GuessJudge.Field
        let guess: String
        let answer: String
        let verdict: GuessJudge.Verdict
        let why: String
    }

    static func rows() throws -> [Row] {
        let url = try #require(Bundle.module.url(forResource: "judged-guesses", withExtension: "tsv", subdirectory: "Oracle"))
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            if line.hasPrefix("#") || line.isEmpty { return nil }
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count == 5, let field = GuessJudge.Field(rawValue: cols[0]), let verdict = GuessJudge.Verdict(rawValue: cols[3]) else {
                Issue.record("bad row: \(line)")
                return nil
            }
            return Row(field: field, guess: cols[1], answer: cols[2], verdict: verdict, why: cols[4])
        }
    }

    @Test func everyJudgedGuessGetsThePersonsVerdict() throws {
        let judge = GuessJudge()
        var disagreements: [String] = []
        let rows = try Self.rows()
        #expect(rows.count >= 200)
        #expect(Set(rows.map(\.verdict)) == [.correct, .nearMiss, .wrong])
        for row in rows {
            let j = judge.judge(guess: row.guess, answer: row.answer, field: row.field)
            if j.verdict != row.verdict {
                disagreements.append("\(row.field) '\(row.guess)' vs '\(row.answer)': \(j.verdict) (\(j.reason)), expected \(row.verdict) (\(row.why))")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(rows.count):\n\(disagreements.joined(separator: "\n"))")
    }

    @Test func aliasesCountAsTheAnswer() {
        let j = GuessJudge().judge(guess: "Unforgettable Fire", answer: "The Unforgettable Fire (Remastered)", field: .title, aliases: ["UF"])
        #expect(j.verdict == .correct)
        let alias = GuessJudge().judge(guess: "UF", answer: "The Unforgettable Fire", field: .title, aliases: ["UF"])
        #expect(alias.verdict == .correct)
        #expect(alias.reason.contains("alias"))
    }

    @Test func theThresholdIsConfigurable() {
        // "dont stop" is 72% of "don't stop me now".
        #expect(GuessJudge(threshold: 80).judge(guess: "dont stop", answer: "Don't Stop Me Now", field: .title).verdict == .nearMiss)
        #expect(GuessJudge(threshold: 70).judge(guess: "dont stop", answer: "Don't Stop Me Now", field: .title).verdict == .correct)
    }

    @Test func anEmptyGuessIsWrong() {
        #expect(GuessJudge().judge(guess: "  ", answer: "Yesterday", field: .title).verdict == .wrong)
    }
}
