import JukeCore
import Testing

@testable import Matching

/// The vectorized all-pairs `fuzz.ratio` gives exactly the single-pair scorer's score for
/// every pair, whatever lane width the query lands in, including empty strings, characters
/// beyond Latin-1 that only some queries of a group have, and queries past 64 characters.
@Suite(.timeLimit(.minutes(5))) struct IndelMatrixTests {
    static func randomStrings(_ count: Int, seed: UInt64, alphabet: [Character], maxLength: Int) -> [Scalars] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let length = Int(rng.next() % UInt64(maxLength + 1))
            return String((0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }).scalarValues
        }
    }

    @Test(arguments: [
        ("abc ", 8), ("abcdefgh", 16), ("aeiou rstlnm", 32), ("abcdefghijklmnopqrstuvwxyz ", 64), ("éèa日本αβ ", 40), ("ab", 150),
    ])
    func equalsTheSinglePairScorer(alphabet: String, maxLength: Int) {
        let letters = Array(alphabet)
        let queries = Self.randomStrings(150, seed: 1, alphabet: letters, maxLength: maxLength) + [[], "日本".scalarValues]
        let choices = Self.randomStrings(90, seed: 2, alphabet: letters, maxLength: maxLength) + [[]]
        let matrix = IndelMatrix.ratios(queries: queries, choices: choices)
        #expect(matrix.count == queries.count * choices.count)
        var wrong = 0
        for (i, q) in queries.enumerated() {
            for (j, c) in choices.enumerated() where matrix[i * choices.count + j] != Fuzz.ratio(q, c) { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test func emptyListsGiveAnEmptyMatrix() {
        #expect(IndelMatrix.ratios(queries: [], choices: ["a".scalarValues]).isEmpty)
        #expect(IndelMatrix.ratios(queries: ["a".scalarValues], choices: []).isEmpty)
        #expect(IndelMatrix.ratios(queries: [[]], choices: [[]]) == [100])
    }
}
