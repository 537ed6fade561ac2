public import JukeCore
import Matching

/// An in-memory word-prefix index over the library for search-as-you-type.
///
/// Every word of a track's title, artist, album, album artist, composer and genre is an
/// entry in a sorted vocabulary with the tracks that contain it. A query's words each match
/// by prefix ("beet sym" finds Beethoven's symphonies); a track must match every word.
/// Matches rank by where they hit (title over artist over album over the rest) and by
/// whole-word over prefix hits; equal hits in the catalog's artist order.
///
/// It keeps track IDs, not tracks (a page of hits is read from the database), so that a large
/// library costs little memory. A scan's changes are applied in place (`apply`): a removed or
/// changed track's slot is marked dead and skipped, a new one takes a new slot, and new words
/// are merged into the vocabulary; nothing is tokenized again but the tracks that changed.
///
/// When no track has every word (a typo: "bohemain rapsody"), each word that starts no
/// word of the library is replaced by the most similar one (the matching engine's trigram
/// index over the vocabulary, fuzz.ratio at least 70) and the search runs again, marked
/// approximate and with the corrected query as a suggestion.
public struct LibrarySearchIndex: Sendable {
    /// One track as search sees it (the store reads them as such).
    public typealias Entry = SearchableTrack

    public private(set) var generation: Int
    /// Each slot's track; nil once removed (its postings are skipped until compacted away).
    private(set) var ids: [TrackID?] = []
    private var orders: [String] = []
    private var slotOf: [TrackID: Int32] = [:]
    /// The live slots in display order, and each slot's place in it (-1: dead).
    private var ranked: [Int32] = []
    private var rank: [Int32] = []
    /// Words by a stable number, each with the (slot, field weight) pairs that contain it.
    private var wordText: [String] = []
    private var postings: [[Posting]] = []
    /// Word numbers in text order, for prefix ranges.
    private var sortedWords: [Int32] = []
    /// The vocabulary for correcting typos, by word number.
    private var vocabulary = CatalogIndex<Int32>()
    private var deadSlots = 0

    struct Posting: Sendable {
        let track: Int32
        let weight: UInt8
    }

    /// Weights per field: what a person most likely meant when they typed a word.
    enum Field: UInt8 { case title = 8, artist = 6, album = 4, albumArtist = 3, composer = 2, genre = 1 }

    public init(tracks: [Track], generation: Int) {
        self.init(entries: tracks.map(Entry.init), generation: generation)
    }

    public init(entries: [Entry], generation: Int) {
        self.generation = generation
        // Slots in display order, so that a fresh index ranks by slot.
        let sorted = entries.sorted { $0.order < $1.order }
        var map: [String: [Posting]] = [:]
        for (i, entry) in sorted.enumerated() {
            ids.append(entry.id)
            orders.append(entry.order)
            slotOf[entry.id] = Int32(i)
            for (word, weight) in Self.words(of: entry) { map[word, default: []].append(Posting(track: Int32(i), weight: weight)) }
        }
        ranked = (0..<Int32(sorted.count)).map { $0 }
        rank = ranked
        for word in map.keys.sorted() {
            let number = Int32(wordText.count)
            wordText.append(word)
            postings.append(map[word] ?? [])
            sortedWords.append(number)
            vocabulary.upsert(number, text: word)
        }
    }

    /// A track's words, each with the weight of the best field it is in.
    static func words(of entry: Entry) -> [String: UInt8] {
        var best: [String: UInt8] = [:]
        func add(_ text: String?, _ field: Field) {
            guard let text else { return }
            for word in SearchText.tokens(text) { best[word] = max(best[word] ?? 0, field.rawValue) }
        }
        add(entry.title, .title)
        add(entry.artist, .artist)
        add(entry.album, .album)
        add(entry.albumArtist, .albumArtist)
        add(entry.composer, .composer)
        add(entry.genre, .genre)
        if let year = entry.year { best[String(year)] = max(best[String(year)] ?? 0, Field.genre.rawValue) }
        return best
    }

    public var count: Int { slotOf.count }

    public func contains(_ id: TrackID) -> Bool { slotOf[id] != nil }

    // MARK: Changes in place

    /// Follows a change of the library: `removed` tracks leave, `added` ones (new or changed)
    /// come in; the index is then at `generation`. Costs the changed tracks' words and one pass
    /// over the slots' order, not a rebuild.
    public mutating func apply(removing removed: [TrackID], adding added: [Entry], generation: Int) {
        self.generation = generation
        var gone = Set<Int32>()
        for id in removed + added.map(\.id) {
            guard let slot = slotOf.removeValue(forKey: id) else { continue }
            ids[Int(slot)] = nil
            orders[Int(slot)] = ""
            rank[Int(slot)] = -1
            gone.insert(slot)
        }
        deadSlots += gone.count
        var newWords: [String: Int32] = [:]
        var fresh: [Int32] = []
        // The latest entry wins when one track comes twice.
        var latest: [TrackID: Entry] = [:]
        for entry in added { latest[entry.id] = entry }
        for entry in latest.values.sorted(by: { $0.order < $1.order }) {
            let slot = Int32(ids.count)
            ids.append(entry.id)
            orders.append(entry.order)
            rank.append(0)
            slotOf[entry.id] = slot
            fresh.append(slot)
            for (word, weight) in Self.words(of: entry) {
                let number: Int32
                if let known = newWords[word] ?? find(word) {
                    number = known
                } else {
                    number = Int32(wordText.count)
                    wordText.append(word)
                    postings.append([])
                    newWords[word] = number
                    vocabulary.upsert(number, text: word)
                }
                postings[Int(number)].append(Posting(track: slot, weight: weight))
            }
        }
        if !newWords.isEmpty {
            let byText = newWords.sorted { $0.key < $1.key }.map(\.value)
            sortedWords = Self.merge(sortedWords, byText) { wordText[Int($0)] < wordText[Int($1)] }
        }
        // The display order: the survivors in their order, the new slots merged in.
        ranked = Self.merge(gone.isEmpty ? ranked : ranked.filter { !gone.contains($0) }, fresh) { orders[Int($0)] < orders[Int($1)] }
        for (place, slot) in ranked.enumerated() { rank[Int(slot)] = Int32(place) }
        if deadSlots > 1024, deadSlots > slotOf.count / 4 { compact() }
    }

    /// The number of a word already in the vocabulary.
    private func find(_ word: String) -> Int32? {
        let i = lowerBound(word)
        guard i < sortedWords.count, wordText[Int(sortedWords[i])] == word else { return nil }
        return sortedWords[i]
    }

    static func merge(_ a: [Int32], _ b: [Int32], by less: (Int32, Int32) -> Bool) -> [Int32] {
        guard !b.isEmpty else { return a }
        var out: [Int32] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if less(b[j], a[i]) {
                out.append(b[j])
                j += 1
            } else {
                out.append(a[i])
                i += 1
            }
        }
        out += a[i...]
        out += b[j...]
        return out
    }

    /// Drops the dead slots: the live ones renumbered in display order, their postings
    /// rewritten, words no track has any more forgotten.
    private mutating func compact() {
        var newSlot = [Int32](repeating: -1, count: ids.count)
        var newIDs: [TrackID?] = []
        var newOrders: [String] = []
        newIDs.reserveCapacity(ranked.count)
        newOrders.reserveCapacity(ranked.count)
        for (place, slot) in ranked.enumerated() {
            newSlot[Int(slot)] = Int32(place)
            newIDs.append(ids[Int(slot)])
            newOrders.append(orders[Int(slot)])
        }
        for number in postings.indices {
            postings[number] = postings[number].compactMap { p in
                let slot = newSlot[Int(p.track)]
                return slot < 0 ? nil : Posting(track: slot, weight: p.weight)
            }
            if postings[number].isEmpty, !wordText[number].isEmpty {
                vocabulary.remove(Int32(number))
                wordText[number] = ""
            }
        }
        sortedWords.removeAll { postings[Int($0)].isEmpty }
        ids = newIDs
        orders = newOrders
        slotOf = [:]
        for (slot, id) in newIDs.enumerated() { if let id { slotOf[id] = Int32(slot) } }
        ranked = (0..<Int32(newIDs.count)).map { $0 }
        rank = ranked
        deadSlots = 0
    }

    // MARK: Searching

    /// The first place in `sortedWords` whose word is not less than `prefix`.
    private func lowerBound(_ prefix: String) -> Int { Self.lowerBound(prefix, in: sortedWords, wordText) }

    private static func lowerBound(_ prefix: String, in sortedWords: [Int32], _ wordText: [String]) -> Int {
        var lo = 0
        var hi = sortedWords.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if wordText[Int(sortedWords[mid])] < prefix { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    public struct Result: Sendable {
        /// The page of hits, best first.
        public let ids: [TrackID]
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
            if i < sortedWords.count, wordText[Int(sortedWords[i])].hasPrefix(term) {
                options.append([term])
                continue
            }
            // Words under three letters are too short to guess at.
            if term.count < 3 { return [] }
            let hits = vocabulary.search(term, limit: 3, minimumScore: Self.correctionScore)
            if hits.isEmpty { return [] }
            options.append(hits.map { wordText[Int($0.id)] })
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
        guard !terms.isEmpty, !slotOf.isEmpty else { return Result(ids: [], total: 0) }
        // Read into locals: the loops below run once a posting, and a closure or `||` that
        // reads a property copies the whole index in a debug build (it cost 3-5x).
        let rank = self.rank
        let ranked = self.ranked
        let postings = self.postings
        let wordText = self.wordText
        let sortedWords = self.sortedWords
        let anyDead = deadSlots > 0
        // Flat arrays instead of dictionaries: a one-letter query touches most of a 100,000
        // track library, and hashing each posting would dominate.
        var score = [UInt16](repeating: 0, count: ids.count)
        var matchedTerms = [UInt8](repeating: 0, count: ids.count)
        var termBest = [UInt8](repeating: 0, count: ids.count)
        var touched: [Int32] = []
        for (n, term) in terms.enumerated() {
            touched.removeAll(keepingCapacity: true)
            var i = Self.lowerBound(term, in: sortedWords, wordText)
            while i < sortedWords.count, wordText[Int(sortedWords[i])].hasPrefix(term) {
                let word = Int(sortedWords[i])
                let factor: UInt8 = wordText[word].utf8.count == term.utf8.count ? 3 : 2
                // Dead slots are skipped (only looked for when there are any).
                for p in postings[word] where Int(matchedTerms[Int(p.track)]) == n {
                    if anyDead, rank[Int(p.track)] < 0 { continue }
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
            if touched.isEmpty { return Result(ids: [], total: 0) }
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
                ordered.append(contentsOf: group.sorted { rank[Int($0)] < rank[Int($1)] })
            } else {
                // Only the first `need` in display order: mark and sweep, O(library) not O(n log n).
                var marked = [Bool](repeating: false, count: ids.count)
                for t in group { marked[Int(t)] = true }
                var i = 0
                while ordered.count < wanted, i < ranked.count {
                    if marked[Int(ranked[i])] { ordered.append(ranked[i]) }
                    i += 1
                }
            }
        }
        let page = ordered.dropFirst(offset).prefix(limit).compactMap { ids[Int($0)] }
        return Result(ids: Array(page), total: matches.count)
    }
}

extension SearchableTrack {
    /// A track listed by artist, then title (where no catalog key is at hand).
    public init(_ t: Track) {
        self.init(
            id: t.id, title: t.title, artist: t.artist, album: t.album, albumArtist: t.albumArtist, composer: t.composer, genre: t.genre,
            year: t.year, order: SortKey.sortName(t.artist) + "\u{1}" + SortKey.make(t.title) + "\u{1}" + t.id.description)
    }
}
