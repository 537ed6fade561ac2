import JukeCore
import Testing

@testable import Matching

@Suite(.timeLimit(.minutes(5))) struct CatalogKeyTests {
    @Test(arguments: [
        ("Beyoncé", "beyonce"), ("Don't Stop Me Now", "dont stop me now"), ("AC/DC", "ac dc"), ("Straße", "strasse"),
        ("  Multiple   spaces!! ", "multiple spaces"), ("Motörhead", "motorhead"), ("Sigur Rós", "sigur ros"), ("ŁÓDŹ", "lodz"),
        ("Rock’n’Roll", "rocknroll"), ("東京事変", "東京事変"), ("Ελλάδα", "ελλαδα"), ("e\u{301}cole", "ecole"), ("", ""), ("!?", ""),
    ])
    func folds(raw: String, key: String) {
        var folded = String.UnicodeScalarView()
        folded.append(contentsOf: CatalogKey.fold(raw).compactMap(Unicode.Scalar.init))
        #expect(String(folded) == key)
    }
}

@Suite(.timeLimit(.minutes(5))) struct CatalogIndexTests {
    /// A synthetic catalog from made-up words, skewed like real titles.
    static func catalog(_ count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        let syllables = ["ka", "lo", "ve", "ni", "ght", "ra", "in", "mo", "on", "dan", "ce", "bl", "ue", "st", "ar", "so", "ul", "ri", "ver"]
        let common = ["the", "love", "night", "you", "my", "heart"]
        func word() -> String {
            if rng.next() % 4 == 0 { return common[Int(rng.next() % UInt64(common.count))] }
            return (0..<(2 + Int(rng.next() % 3))).map { _ in syllables[Int(rng.next() % UInt64(syllables.count))] }.joined()
        }
        return (0..<count).map { _ in (0..<(1 + Int(rng.next() % 4))).map { _ in word() }.joined(separator: " ") }
    }

    static func typo(_ s: String, _ rng: inout SplitMix64) -> String {
        var chars = Array(s)
        let i = Int(rng.next() % UInt64(chars.count))
        switch rng.next() % 3 {
        case 0: chars.remove(at: i)
        case 1: chars[i] = "x"
        default: chars.insert("q", at: i)
        }
        return String(chars)
    }

    static func exhaustiveBest(_ query: String, _ entries: [String]) -> Double {
        let q = CatalogKey.fold(query)
        return entries.map { Fuzz.ratio(q, CatalogKey.fold($0)) }.max() ?? 0
    }

    @Test func findsExactTypedAndAccentedEntries() {
        var index = CatalogIndex<Int>()
        let entries = ["Beyoncé", "Bruce Springsteen", "Born to Run", "Love Story", "Queens of the Stone Age", "Queen"]
        for (i, e) in entries.enumerated() { index.upsert(i, text: e) }
        #expect(index.count == entries.count)
        #expect(index.search("beyonce", limit: 1).first?.id == 0)
        #expect(index.search("Bruce Sprinsteen", limit: 1).first?.id == 1)
        #expect(index.search("queen", limit: 1).first?.id == 5)
        let hit = index.search("Love Storry", limit: 1).first
        #expect(hit?.id == 3)
        #expect(hit?.score == Fuzz.ratio(CatalogKey.fold("Love Storry"), CatalogKey.fold("Love Story")))
        #expect(index.search("", limit: 5).isEmpty)
        #expect(index.search("zzzz qqqq", limit: 5, minimumScore: 80).isEmpty)
    }

    /// On typed queries the index's best score is the exhaustive best (what RapidFuzz's
    /// extractOne returns), also when the posting budget forces the common trigrams to be skipped.
    @Test(arguments: [150_000, 3_000])
    func agreesWithAnExhaustiveSearch(budget: Int) async {
        let entries = Self.catalog(20_000, seed: 3)
        var index = CatalogIndex<Int>()
        index.postingBudget = budget
        for (i, e) in entries.enumerated() { index.upsert(i, text: e) }
        var rng = SplitMix64(seed: 4)
        var agreed = 0
        let queries = (0..<150).map { _ in Self.typo(entries[Int(rng.next() % UInt64(entries.count))], &rng) }
        for q in queries {
            let best = index.search(q, limit: 1).first?.score ?? 0
            if best == Self.exhaustiveBest(q, entries) { agreed += 1 }
            // Seconds of scoring in a debug build: other suites' tasks get the threads between
            // queries instead of waiting for the whole search (the pool has a thread a core).
            await Task.yield()
        }
        // A trigram filter is a heuristic; on one-typo queries it must practically never miss.
        #expect(agreed >= 147, "agreed on \(agreed) of 150")
    }

    @Test func updatesAndRemovalsAreSeenAtOnce() {
        var index = CatalogIndex<String>()
        index.upsert("a", text: "Smells Like Teen Spirit")
        index.upsert("b", text: "Come As You Are")
        index.upsert("a", text: "Heart-Shaped Box")  // replaced
        #expect(index.count == 2)
        #expect(index.search("teen spirit", limit: 1, minimumScore: 60).isEmpty)
        #expect(index.search("heart shaped box", limit: 1).first?.id == "a")
        index.remove("b")
        index.remove("never there")
        #expect(!index.contains("b"))
        #expect(index.search("come as you are", limit: 1, minimumScore: 50).isEmpty)
        #expect(index.count == 1)
    }

    /// Removing most entries compacts the lists; what is left is still found, in order.
    @Test func compactionKeepsTheLiveEntries() {
        let entries = Self.catalog(4_000, seed: 9)
        var index = CatalogIndex<Int>()
        for (i, e) in entries.enumerated() { index.upsert(i, text: e) }
        for i in 0..<3_000 { index.remove(i) }
        #expect(index.count == 1_000)
        for i in stride(from: 3_000, to: 4_000, by: 97) {
            let best = index.search(entries[i], limit: 1).first
            #expect(best?.score == 100)
            #expect(best.map { entries[$0.id] == entries[i] } == true)
        }
        #expect(index.search(entries[5], limit: 50).allSatisfy { $0.id >= 3_000 })
    }

    @Test func candidatesAreBoundedAndIncludeTheEntryMeant() {
        let entries = Self.catalog(5_000, seed: 5)
        var index = CatalogIndex<Int>()
        for (i, e) in entries.enumerated() { index.upsert(i, text: e) }
        let found = index.candidates(entries[1234], count: 20)
        #expect(found.count <= 20)
        #expect(found.contains { entries[$0] == entries[1234] })
    }
}
