/// Fuzzy lookup among up to millions of catalog strings (titles, artists, "artist title")
/// without comparing the query with all of them: a trigram index proposes candidates, and
/// only those are scored with `fuzz.ratio`.
///
/// How a query runs:
/// 1. Its key (see `CatalogKey`) is padded with a space on each side and cut into distinct
///    trigrams; each trigram has a posting list of the entries that contain it.
/// 2. Lists are read rarest first, counting per entry how many query trigrams it shares,
///    until `postingBudget` postings have been read. The most common trigrams ("the", "ove")
///    say least about which entry is meant and cost most, so they are the ones skipped.
/// 3. Entries are ranked by the Dice coefficient of shared trigrams (2·shared / (query
///    trigrams + entry trigrams), the trigram analogue of `fuzz.ratio`'s 2·LCS / lengths), and
///    the best `candidateCount` are scored exactly.
///
/// The filter is a heuristic: an entry that shares no readable trigram with the query (a
/// two-letter query against a million entries, or every word misspelt) can be missed. The
/// benchmark measures how often the best answer equals RapidFuzz's exhaustive `extractOne`.
///
/// Updates are incremental: `upsert` appends to the posting lists, `remove` marks the slot
/// dead (dead slots are skipped when ranking) and the lists are compacted once dead slots
/// outnumber live ones.
public struct CatalogIndex<ID: Hashable & Sendable>: Sendable {
    public struct Hit: Sendable {
        public let id: ID
        /// `fuzz.ratio` of the folded query and the folded entry, 0...100.
        public let score: Double
    }

    /// Postings read per query at most (after the rarest list, which is always read).
    public var postingBudget: Int {
        get { trigrams.postingBudget }
        set { trigrams.postingBudget = newValue }
    }
    /// Entries scored exactly per query.
    public var candidateCount = 1_000

    // Entries live in slots of the (non-generic, so fully optimized) trigram index; a
    // replaced or removed entry leaves a dead slot behind.
    private var trigrams = TrigramIndex()
    private var slotIDs: [ID?] = []
    private var slotOf: [ID: UInt32] = [:]

    public init() {}

    public var count: Int { slotOf.count }

    /// Adds the entry, or replaces its text if the ID is already there.
    public mutating func upsert(_ id: ID, text: String) {
        remove(id)
        insert(id, key: TrigramIndex.cut(CatalogKey.fold(text)))
    }

    public mutating func remove(_ id: ID) {
        guard let slot = slotOf.removeValue(forKey: id) else { return }
        slotIDs[Int(slot)] = nil
        trigrams.kill(slot)
        if trigrams.deadSlots > 1024, trigrams.deadSlots > slotOf.count { compact() }
    }

    public func contains(_ id: ID) -> Bool { slotOf[id] != nil }

    /// The best entries for `query`, best first, scored with `fuzz.ratio` on folded keys.
    public func search(_ query: String, limit: Int = 10, minimumScore: Double = 0) -> [Hit] {
        if limit <= 0 { return [] }
        let queryKey = TrigramIndex.cut(CatalogKey.fold(query))
        let slots = trigrams.candidateSlots(queryKey, count: candidateCount)
        return trigrams.best(slots, for: queryKey, limit: limit, minimumScore: minimumScore).compactMap { hit in
            slotIDs[Int(hit.slot)].map { Hit(id: $0, score: hit.score) }
        }
    }

    /// The entries most likely to match `query` by shared trigrams, most likely first, for a
    /// caller that scores them its own way (the track resolver).
    public func candidates(_ query: String, count: Int) -> [ID] {
        trigrams.candidateSlots(TrigramIndex.cut(CatalogKey.fold(query)), count: count).compactMap { slotIDs[Int($0)] }
    }

    private mutating func insert(_ id: ID, key: Scalars) {
        let slot = trigrams.insert(key)
        slotIDs.append(id)
        slotOf[id] = slot
    }

    /// Rebuilds the slots and lists from the live entries, in their original order.
    private mutating func compact() {
        var fresh = CatalogIndex()
        fresh.candidateCount = candidateCount
        fresh.postingBudget = postingBudget
        for (slot, id) in slotIDs.enumerated() {
            if let id { fresh.insert(id, key: trigrams.key(UInt32(slot))) }
        }
        self = fresh
    }
}

/// Slots, their folded keys and the trigram posting lists: the part of the catalog index
/// that does not depend on the caller's ID type.
struct TrigramIndex: Sendable {
    var postingBudget = 150_000
    private(set) var deadSlots = 0
    private var alive: [Bool] = []
    private var keyStart: [UInt32] = []
    private var keyLength: [UInt16] = []
    private var keys: Scalars = []
    private var gramList: [UInt64: Int32] = [:]
    private var postings: [[UInt32]] = []
    // The first live slot of each distinct key (by hash), so an entry typed exactly is always
    // a candidate even when all its trigrams are common ones ("night the").
    private var exact: [Int: UInt32] = [:]
    // The distinct keys of up to `shortLength` characters: a query of one to three letters
    // has too few trigrams to find them ("wy" is 80% "my"), so those queries score them all.
    private var short: [Int: UInt32] = [:]
    static let shortLength = 4

    /// Keys longer than this are cut: trigram counts are kept in a byte per entry.
    static let maximumKeyLength = 250

    static func cut(_ key: Scalars) -> Scalars {
        key.count > maximumKeyLength ? Array(key.prefix(maximumKeyLength)) : key
    }

    mutating func insert(_ key: Scalars) -> UInt32 {
        let slot = UInt32(alive.count)
        alive.append(true)
        keyStart.append(UInt32(keys.count))
        keyLength.append(UInt16(key.count))
        keys.append(contentsOf: key)
        let hash = key.hashValue
        if exact[hash] == nil { exact[hash] = slot }
        if key.count <= Self.shortLength, short[hash] == nil { short[hash] = slot }
        // Each trigram once per entry, so shared counts never exceed the query's.
        var previous: UInt64?
        for gram in Self.trigrams(of: key).sorted() where gram != previous {
            previous = gram
            if let list = gramList[gram] {
                postings[Int(list)].append(slot)
            } else {
                gramList[gram] = Int32(postings.count)
                postings.append([slot])
            }
        }
        return slot
    }

    mutating func kill(_ slot: UInt32) {
        let hash = key(slot).hashValue
        if exact[hash] == slot { exact[hash] = nil }
        if short[hash] == slot { short[hash] = nil }
        alive[Int(slot)] = false
        deadSlots += 1
    }

    func key(_ slot: UInt32) -> Scalars {
        let start = Int(keyStart[Int(slot)])
        return Array(keys[start..<start + Int(keyLength[Int(slot)])])
    }

    func candidateSlots(_ queryKey: Scalars, count wanted: Int) -> [UInt32] {
        if queryKey.isEmpty || alive.isEmpty || wanted <= 0 { return [] }
        let lists = Set(Self.trigrams(of: queryKey)).compactMap { gramList[$0] }.sorted { postings[Int($0)].count < postings[Int($1)].count }
        // Always worth scoring exactly, whatever the trigrams say.
        var certain: [UInt32] = []
        if let same = exact[queryKey.hashValue] { certain.append(same) }
        if queryKey.count < 4 { certain += short.values.sorted() }
        if lists.isEmpty { return certain }

        // Shared trigrams per slot, and the slots touched (to visit only those afterwards).
        var shared = [UInt8](repeating: 0, count: alive.count)
        var touched: [UInt32] = []
        var read = 0
        shared.withUnsafeMutableBufferPointer { counts in
            for (n, list) in lists.enumerated() {
                let slots = postings[Int(list)]
                if n > 0, read + slots.count > postingBudget { break }
                read += slots.count
                slots.withUnsafeBufferPointer { slots in
                    for slot in slots {
                        let s = Int(slot)
                        if counts[s] == 0 { touched.append(slot) }
                        counts[s] &+= 1
                    }
                }
            }
        }

        // Rank by Dice coefficient, quantized to 0...255 so the top can be picked with a
        // histogram in linear time instead of sorting every touched slot.
        let queryGrams = queryKey.count  // a padded key of n characters has n trigrams
        var level = [UInt8](repeating: 0, count: touched.count)
        var histogram = [Int](repeating: 0, count: 256)
        for (i, slot) in touched.enumerated() {
            let s = Int(slot)
            guard alive[s] else { continue }
            let dice = 2 * Int(shared[s]) * 255 / (queryGrams + max(1, Int(keyLength[s])))
            let l = UInt8(min(255, dice))
            level[i] = l
            histogram[Int(l)] += 1
        }
        var cutoff = 255
        var taken = histogram[255]
        while cutoff > 1, taken < wanted {
            cutoff -= 1
            taken += histogram[cutoff]
        }
        var best: [(slot: UInt32, level: UInt8)] = []
        best.reserveCapacity(min(taken, touched.count))
        for (i, slot) in touched.enumerated() where level[i] >= cutoff && alive[Int(slot)] {
            best.append((slot, level[i]))
        }
        best.sort { $0.level != $1.level ? $0.level > $1.level : $0.slot < $1.slot }
        let proposed = best.prefix(wanted).map(\.slot)
        if certain.isEmpty { return proposed }
        let already = Set(certain)
        return certain + proposed.filter { !already.contains($0) }
    }

    /// The slots' `fuzz.ratio` against the query, best first; among equals the entry added
    /// first, as RapidFuzz's extractOne returns the first best.
    func best(_ slots: [UInt32], for queryKey: Scalars, limit: Int, minimumScore: Double) -> [(slot: UInt32, score: Double)] {
        if slots.isEmpty { return [] }
        let pattern = PreparedPattern(queryKey)
        var hits: [(slot: UInt32, score: Double)] = []
        hits.reserveCapacity(slots.count)
        keys.withUnsafeBufferPointer { all in
            for slot in slots {
                let start = Int(keyStart[Int(slot)])
                let entry = UnsafeBufferPointer(rebasing: all[start..<start + Int(keyLength[Int(slot)])])
                let score = pattern.ratio(entry)
                if score >= minimumScore { hits.append((slot, score)) }
            }
        }
        hits.sort { $0.score != $1.score ? $0.score > $1.score : $0.slot < $1.slot }
        return Array(hits.prefix(limit))
    }

    /// Trigrams of " key ", each packed as three 21-bit scalars.
    static func trigrams(of key: Scalars) -> [UInt64] {
        if key.isEmpty { return [] }
        var padded: Scalars = [0x20]
        padded.reserveCapacity(key.count + 2)
        padded.append(contentsOf: key)
        padded.append(0x20)
        var grams: [UInt64] = []
        grams.reserveCapacity(key.count)
        for i in 0..<(padded.count - 2) {
            grams.append(UInt64(padded[i]) << 42 | UInt64(padded[i + 1]) << 21 | UInt64(padded[i + 2]))
        }
        return grams
    }
}
