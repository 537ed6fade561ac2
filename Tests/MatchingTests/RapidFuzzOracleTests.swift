import Foundation
import JukeCore
import Testing

@testable import Matching

/// The scorers agree with RapidFuzz on 2,500 generated and real-world pairs (random,
/// mutated, accented, non-Latin, and longer than one 64-bit word). The scores were written
/// by rapidfuzz itself (Scripts/make-match-oracle.py).
@Suite(.timeLimit(.minutes(5))) struct RapidFuzzOracleTests {
    struct Pair: Decodable {
        let a: String
        let b: String
        let ratio: Double
        let partial_ratio: Double
        let token_sort_ratio: Double
        let token_set_ratio: Double
        let jaro_winkler: Double
        let levenshtein: Int
    }

    struct Oracle: Decodable {
        let pairs: [Pair]
    }

    static func oracle() throws -> [Pair] {
        let url = try #require(Bundle.module.url(forResource: "rapidfuzz", withExtension: "json", subdirectory: "Oracle"))
        return try JSONDecoder().decode(Oracle.self, from: Data(contentsOf: url)).pairs
    }

    static let tolerance = 1e-9

    @Test func ratioAndLevenshteinMatchExactly() throws {
        let pairs = try Self.oracle()
        #expect(pairs.count >= 2500)
        var mismatches: [String] = []
        for p in pairs {
            let a = p.a.scalarValues, b = p.b.scalarValues
            if abs(Fuzz.ratio(a, b) - p.ratio) > Self.tolerance { mismatches.append("ratio \(p.a) | \(p.b): \(Fuzz.ratio(a, b)) vs \(p.ratio)") }
            if Levenshtein.distance(a, b) != p.levenshtein {
                mismatches.append("levenshtein \(p.a) | \(p.b): \(Levenshtein.distance(a, b)) vs \(p.levenshtein)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    @Test func tokenRatiosAndJaroWinklerMatch() throws {
        var mismatches: [String] = []
        for p in try Self.oracle() {
            let a = p.a.scalarValues, b = p.b.scalarValues
            let sort = Fuzz.tokenSortRatio(a, b), set = Fuzz.tokenSetRatio(a, b), jw = JaroWinkler.similarity(a, b)
            if abs(sort - p.token_sort_ratio) > Self.tolerance { mismatches.append("sort \(p.a) | \(p.b): \(sort) vs \(p.token_sort_ratio)") }
            if abs(set - p.token_set_ratio) > Self.tolerance { mismatches.append("set \(p.a) | \(p.b): \(set) vs \(p.token_set_ratio)") }
            if abs(jw - p.jaro_winkler) > Self.tolerance { mismatches.append("jw \(p.a) | \(p.b): \(jw) vs \(p.jaro_winkler)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    @Test func partialRatioMatchesForNeedlesUpTo64Characters() throws {
        var mismatches: [String] = []
        var compared = 0
        for p in try Self.oracle() where min(p.a.unicodeScalars.count, p.b.unicodeScalars.count) <= 64 {
            compared += 1
            let got = Fuzz.partialRatio(p.a.scalarValues, p.b.scalarValues)
            if abs(got - p.partial_ratio) > Self.tolerance { mismatches.append("\(p.a) | \(p.b): \(got) vs \(p.partial_ratio)") }
        }
        #expect(compared > 2000)
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }
}

/// Properties every similarity must have, on generated strings.
@Suite(.timeLimit(.minutes(5))) struct ScorerPropertyTests {
    static func strings(seed: UInt64, count: Int) -> [Scalars] {
        var rng = SplitMix64(seed: seed)
        func next() -> UInt64 { rng.next() >> 33 }
        let alphabet: [UInt32] = Array("abcde fgé".unicodeScalars.map(\.value))
        return (0..<count).map { _ in (0..<Int(next() % 90)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] } }
    }

    @Test func symmetryIdentityAndBounds() {
        let all = Self.strings(seed: 7, count: 120)
        for (a, b) in zip(all, all.reversed()) {
            for score in [Fuzz.ratio, Fuzz.tokenSortRatio, Fuzz.tokenSetRatio] as [(Scalars, Scalars) -> Double] {
                #expect(abs(score(a, b) - score(b, a)) < 1e-9)
                #expect((0...100).contains(score(a, b)))
            }
            #expect(Levenshtein.distance(a, b) == Levenshtein.distance(b, a))
            #expect(Fuzz.ratio(a, a) == 100)
            #expect(Levenshtein.distance(a, a) == 0)
            #expect((0...1).contains(JaroWinkler.similarity(a, b)))
            // Indel distance is at least the Levenshtein distance, at most twice it.
            let lev = Levenshtein.distance(a, b), indel = Indel.distance(a, b)
            #expect(lev <= indel && indel <= 2 * lev)
            // A string found whole inside another is a perfect partial match.
            if !a.isEmpty { #expect(Fuzz.partialRatio(a, b + a + b) == 100) }
        }
    }

    @Test func oneMoreEditNeverRaisesTheRatio() {
        for a in Self.strings(seed: 11, count: 60) where !a.isEmpty {
            var edited = a
            var previous = 100.0
            for step in 0..<min(10, a.count) {
                edited[step] = 0x5A  // 'Z' is not in the alphabet: each step is one more substitution
                let score = Fuzz.ratio(a, edited)
                #expect(score <= previous + 1e-9)
                previous = score
            }
        }
    }

    @Test func theCutoffStopsLevenshteinEarly() {
        let a = Array(repeating: UInt32(0x61), count: 200), b = Array(repeating: UInt32(0x62), count: 200)
        #expect(Levenshtein.distance(a, b, cutoff: 10) == 11)
        #expect(Levenshtein.distance(a, b) == 200)
        #expect(Levenshtein.distance("kitten".scalarValues, "sitting".scalarValues) == 3)
    }
}

@Suite(.timeLimit(.minutes(5))) struct MatrixOnOracleTests {
    /// The oracle's strings, all against all through the vectorized matrix, equal the
    /// single-pair scorer (whose diagonal equals rapidfuzz, above).
    @Test func theMatrixScoresExactlyAsOneAtATime() throws {
        let pairs = try RapidFuzzOracleTests.oracle()
        let queries = pairs.prefix(300).map(\.a.scalarValues)
        let choices = pairs.map(\.b.scalarValues)
        let matrix = IndelMatrix.ratios(queries: queries, choices: choices)
        var wrong = 0
        for (i, q) in queries.enumerated() {
            for (j, c) in choices.enumerated() where matrix[i * choices.count + j] != Fuzz.ratio(q, c) { wrong += 1 }
        }
        #expect(wrong == 0)
    }
}
