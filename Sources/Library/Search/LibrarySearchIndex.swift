public import JukeCore
import Matching

/// An in-memory word-prefix index over the library for search-as-you-type.
///
/// Every word of a track's title, artist, album, album artist, composer and genre is an
/// entry in a sorted vocabulary with the tracks that contain it. A query's words each match
/// by prefix ("beet sym" finds Beethoven's symphonies); a track must match every word.
/// Matches rank by where they hit (title over artist over album over the rest) and by
/// whole-word over prefix hits. The index is immutable; the server swaps in a new one when
/// the library's generation changes.
///
/// When no track has every word (a typo: "bohemain rapsody"), each word that starts no
/// word of the library is replaced by the most similar one (the matching engine's trigram
/// index over the vocabulary, fuzz.ratio at least 70) and the search runs again, marked
/// approximate and with the corrected query as a suggestion.
public struct LibrarySearchIndex: Sendable {
    public let generation: Int
    let tracks: [Track]
    /// Sorted words and, for each, the (track index, field weight) pairs that contain it.
    let words: [String]
    let postings: [[Posting]]
    /// The vocabulary for correcting typos: entry i is words[i].
    let vocabulary: CatalogIndex<Int>

    struct Posting: Sendable {
        let track: Int32
        let weight: UInt8
    }

    /// Weights per field: what a person most likely meant when they typed a word.
    enum Field: UInt8 { case title = 8, artist = 6, album = 4, albumArtist = 3, composer = 2, genre = 1 }

    public init(tracks: [Track], generation: Int) {
        self.generation = generation
        // Stored in display order, so that ordering equal-scored hits is ordering integers.
        // The keys are folded once each, not once per comparison.
        let keys = tracks.map { (SortKey.sortName($0.artist), SortKey.make($0.title)) }
        let tracks = tracks.indices.sorted { keys[$0] < keys[$1] }.map { tracks[$0] }
        self.tracks = tracks
        var map: [String: [Posting]] = [:]
        for (i, t) in tracks.enumerated() {
            var best: [String: UInt8] = [:]
            func add(_ text: String?, _ field: Field) {
                guard let text else { return }
                for word in SearchText.tokens(text) { best[word] = max(best[word] ?? 0, field.rawValue) }
            }
            add(t.title, .title)
            add(t.artist, .artist)
            add(t.album, .album)
            add(t.albumArtist, .albumArtist)
            add(t.composer, .composer)
            add(t.genre, .genre)
            if let year = t.year { best[String(year)] = max(best[String(year)] ?? 0, Field.genre.rawValue) }
            for (word, weight) in best { map[word, default: []].append(Posting(track: Int32(i), weight: weight)) }
        }
        let sorted = map.keys.sorted()
        words = sorted
        postings = sorted.map { map[$0] ?? [] }
        var vocabulary = CatalogIndex<Int>()
        for (i, word) in sorted.enumerated() { vocabulary.upsert(i, text: word) }
        self.vocabulary = vocabulary
    }

    public var count: Int { tracks.count }

    /// The first index in `words` not less than `prefix`.
    private func lowerBound(_ prefix: String) -> Int {
        var lo = 0, hi = words.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if words[mid] < prefix { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    public struct Result: Sendable {
        public let tracks: [Track]
        public let total: Int
        /// No track had every word typed; these are the tracks for `suggestion` instead.
        public var approximate = false
        /// The query with its typos corrected, when `approximate`.
        public var suggestion: String?
    }

    /// How similar (fuzz.ratio, 0...100) a library word must be to a typed word to replace it.
    static let correctionScore = 70.0

    public func search(_ query: String, limit: Int, offset: Int = 0) -> Result {
        let exact = prefixSearch(query, limit: limit, offset: offset)
        if exact.total > 0 { return exact }
        for corrected in corrections(of: query) {
            var result = prefixSearch(corrected, limit: limit, offset: offset)
            if result.total == 0 { continue }
            result.approximate = true
            result.suggestion = corrected
            return result
        }
        return exact
    }

    /// Corrected queries to try, most similar first: every word that starts no library word
    /// replaced by one of the three closest library words. The closest alone can lead nowhere
    /// ("elyse" is nearer "else" than "elise"), so the combinations are tried in turn.
    func corrections(of query: String) -> [String] {
        var options: [[String]] = []
        var changed = false
        for term in SearchText.tokens(query) {
            let i = lowerBound(term)
            if i < words.count, words[i].hasPrefix(term) {
                options.append([term])
                continue
            }
            // Words under three letters are too short to guess at.
            if term.count < 3 { return [] }
            let hits = vocabulary.search(term, limit: 3, minimumScore: Self.correctionScore)
            if hits.isEmpty { return [] }
            options.append(hits.map { words[$0.id] })
            changed = true
        }
        if !changed { return [] }
        var queries: [[String]] = [[]]
        for choices in options {
            queries = queries.flatMap { prefix in choices.map { prefix + [$0] } }
            if queries.count > 27 { queries = Array(queries.prefix(27)) }
        }
        return queries.map { $0.joined(separator: " ") }
    }

    func prefixSearch(_ query: String, limit: Int, offset: Int) -> Result {
        let terms = Array(Set(SearchText.tokens(query)))
        guard !terms.isEmpty, !tracks.isEmpty else { return Result(tracks: [], total: 0) }
        // Flat arrays instead of dictionaries: a one-letter query touches most of a 100,000
        // track library, and hashing each posting would dominate.
        var score = [UInt16](repeating: 0, count: tracks.count)
        var matchedTerms = [UInt8](repeating: 0, count: tracks.count)
        var termBest = [UInt8](repeating: 0, count: tracks.count)
        var touched: [Int32] = []
        for (n, term) in terms.enumerated() {
            touched.removeAll(keepingCapacity: true)
            var i = lowerBound(term)
            while i < words.count, words[i].hasPrefix(term) {
                let factor: UInt8 = words[i].utf8.count == term.utf8.count ? 3 : 2
                for p in postings[i] where Int(matchedTerms[Int(p.track)]) == n {
                    let t = Int(p.track)
                    if termBest[t] == 0 { touched.append(p.track) }
                    termBest[t] = max(termBest[t], p.weight * factor)
                }
                i += 1
            }
            for t32 in touched {
                let t = Int(t32)
                score[t] += UInt16(termBest[t])
                matchedTerms[t] += 1
                termBest[t] = 0
            }
            if touched.isEmpty { return Result(tracks: [], total: 0) }
        }
        // The last term's touched tracks are exactly those that matched every term.
        let matches = touched
        // Scores are small integers: bucket them, then order within the buckets we need.
        var buckets: [UInt16: [Int32]] = [:]
        for t in matches { buckets[score[Int(t)], default: []].append(t) }
        let wanted = offset + limit
        var ordered: [Int32] = []
        ordered.reserveCapacity(min(wanted, matches.count))
        for key in buckets.keys.sorted(by: >) where ordered.count < wanted {
            let group = buckets[key] ?? []
            let need = wanted - ordered.count
            if group.count <= need {
                ordered.append(contentsOf: group.sorted())
            } else {
                // Only the first `need` in display order: mark and sweep, O(library) not O(n log n).
                var marked = [Bool](repeating: false, count: tracks.count)
                for t in group { marked[Int(t)] = true }
                var i = 0
                while ordered.count < wanted, i < marked.count {
                    if marked[i] { ordered.append(Int32(i)) }
                    i += 1
                }
            }
        }
        let page = ordered.dropFirst(offset).prefix(limit).map { tracks[Int($0)] }
        return Result(tracks: Array(page), total: matches.count)
    }
}
