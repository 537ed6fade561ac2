import ArgumentParser
import Foundation
import Matching

struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Judges a guess against an answer as TuneTrivia does, with the reason and the scores."
    )

    @Option(name: .long, help: "artist or title (default title).") var field: String = "title"
    @Option(name: .long, help: "Similarity in percent at which a guess is correct (default 80).") var threshold: Double = 80
    @Option(name: .long, help: "Another accepted form of the answer; repeatable.") var alias: [String] = []
    @Flag(name: .long, help: "Print one JSON object.") var json = false
    @Argument(help: "The guess.") var guess: String
    @Argument(help: "The right answer.") var answer: String

    func validate() throws {
        guard GuessJudge.Field(rawValue: field) != nil else { throw ValidationError("--field is artist or title") }
        guard (0...100).contains(threshold) else { throw ValidationError("--threshold is a percentage from 0 to 100") }
        guard guess.count <= 500, answer.count <= 500 else { throw ValidationError("guess and answer have at most 500 characters") }
    }

    func run() throws {
        let judge = GuessJudge(threshold: threshold)
        let j = judge.judge(guess: guess, answer: answer, field: GuessJudge.Field(rawValue: field) ?? .title, aliases: alias)
        if json {
            struct Output: Encodable {
                let verdict: GuessJudge.Verdict
                let reason: String
                let scores: GuessJudge.Scores
            }
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(Output(verdict: j.verdict, reason: j.reason, scores: j.scores)), as: UTF8.self))
        } else {
            print("\(j.verdict.rawValue): \(j.reason)")
            let s = j.scores
            print(
                String(
                    format: "ratio %.1f, partial %.1f, token set %.1f, Jaro-Winkler %.3f, edits %d", s.ratio, s.partialRatio, s.tokenSetRatio, s.jaroWinkler,
                    s.edits))
        }
    }
}
