import Foundation
import Matching

/// The guess judge's cost per guess: every row of the judged table (guesses a person has
/// judged, Tests/MatchingTests/Oracle/judged-guesses.tsv) judged `rounds` times. A room of
/// ten thousand phones sends a thousand guesses a second, each judged twice (artist and
/// song) under its game's lock, so this is time every other answer of the room waits.
enum JudgeBench {
    struct Row {
        let field: GuessJudge.Field
        let guess: String
        let answer: String
    }

    static func rows(_ path: String) throws -> [Row] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            if line.hasPrefix("#") { return nil }
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count >= 3, let field = GuessJudge.Field(rawValue: cols[0]) else { return nil }
            return Row(field: field, guess: cols[1], answer: cols[2])
        }
    }

    static func run(_ path: String, rounds: Int) throws {
        let rows = try rows(path)
        let judge = GuessJudge()
        let clock = ContinuousClock()
        var verdicts = 0
        var best = Duration.seconds(1000)
        for _ in 0..<max(rounds, 1) {
            let elapsed = clock.measure {
                for row in rows where judge.judge(guess: row.guess, answer: row.answer, field: row.field).verdict == .correct { verdicts += 1 }
            }
            best = min(best, elapsed)
        }
        var normalized = 0
        let normalizing = clock.measure {
            for row in rows { normalized += MusicTextNormalizer.title(row.guess).words.count + MusicTextNormalizer.artist(row.answer).words.count }
        }
        let perJudgement = seconds(best) / Double(rows.count) * 1e6
        print(
            String(
                format:
                    "juke judge: %d judged guesses, best of %d rounds: %.1f µs a judgement (%.0f a second on one core); normalizing a guess and an answer %.1f µs",
                rows.count, rounds, perJudgement, 1e6 / perJudgement, seconds(normalizing) / Double(rows.count) * 1e6))
        // Keeps the work from being optimized away.
        if verdicts < 0 || normalized < 0 { print(verdicts, normalized) }
    }
}
