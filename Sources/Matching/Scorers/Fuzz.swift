/// RapidFuzz's `fuzz` scorers (0...100), with the same definitions so that scores agree:
/// ratio, partial ratio, token sort ratio and token set ratio.
public enum Fuzz {
    /// Normalized Indel similarity times 100.
    public static func ratio(_ a: Scalars, _ b: Scalars) -> Double {
        100 * Indel.normalizedSimilarity(a, b)
    }

    public static func ratio(_ a: String, _ b: String) -> Double { ratio(a.scalarValues, b.scalarValues) }

    /// The best `ratio` of the shorter string against any window of the longer one,
    /// including windows hanging over either end (RapidFuzz's short-needle algorithm,
    /// which it uses for needles up to 64 characters; Juke uses it for all lengths).
    public static func partialRatio(_ a: Scalars, _ b: Scalars) -> Double {
        if a.isEmpty && b.isEmpty { return 100 }
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        var best = partialRatioImpl(short, long)
        if best != 100 && a.count == b.count { best = max(best, partialRatioImpl(long, short)) }
        return best
    }

    public static func partialRatio(_ a: String, _ b: String) -> Double { partialRatio(a.scalarValues, b.scalarValues) }

    static func partialRatioImpl(_ needle: Scalars, _ haystack: Scalars) -> Double {
        let n = needle.count, m = haystack.count
        if n == 0 { return 0 }
        let pattern = PreparedPattern(needle)
        let present = Set(needle)
        var best = 0.0
        func consider(_ window: ArraySlice<UInt32>) -> Bool {
            let score = pattern.ratio(Array(window))
            if score > best { best = score }
            return best == 100
        }
        if n > 1 {
            for i in 1..<n where present.contains(haystack[i - 1]) {
                if consider(haystack[0..<i]) { return 100 }
            }
        }
        if m > n {
            for i in 0..<(m - n) where present.contains(haystack[i + n - 1]) {
                if consider(haystack[i..<(i + n)]) { return 100 }
            }
        }
        for i in max(0, m - n)..<m where present.contains(haystack[i]) {
            if consider(haystack[i..<m]) { return 100 }
        }
        return best
    }

    /// Words split on whitespace as Python's `str.split()` does.
    static func words(_ s: Scalars) -> [Scalars] {
        var out: [Scalars] = []
        var current: Scalars = []
        for c in s {
            if isPythonWhitespace(c) {
                if !current.isEmpty { out.append(current) }
                current = []
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    static func isPythonWhitespace(_ c: UInt32) -> Bool {
        switch c {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    static func joined(_ words: [Scalars]) -> Scalars {
        var out: Scalars = []
        for (i, w) in words.enumerated() {
            if i > 0 { out.append(0x20) }
            out += w
        }
        return out
    }

    /// `ratio` of the two strings with their words sorted.
    public static func tokenSortRatio(_ a: Scalars, _ b: Scalars) -> Double {
        ratio(joined(words(a).sorted(by: lexicographic)), joined(words(b).sorted(by: lexicographic)))
    }

    public static func tokenSortRatio(_ a: String, _ b: String) -> Double { tokenSortRatio(a.scalarValues, b.scalarValues) }

    /// Compares the words the strings share and the words each has alone (RapidFuzz's
    /// definition: 100 when one set of words contains the other).
    public static func tokenSetRatio(_ a: Scalars, _ b: Scalars) -> Double {
        let setA = Set(words(a)), setB = Set(words(b))
        if setA.isEmpty || setB.isEmpty { return 0 }
        let common = setA.intersection(setB)
        let onlyA = setA.subtracting(setB), onlyB = setB.subtracting(setA)
        if !common.isEmpty && (onlyA.isEmpty || onlyB.isEmpty) { return 100 }
        let diffAB = joined(onlyA.sorted(by: lexicographic))
        let diffBA = joined(onlyB.sorted(by: lexicographic))
        let sectLength = joined(Array(common)).count
        let sep = sectLength != 0 ? 1 : 0
        let sectAB = sectLength + sep + diffAB.count
        let sectBA = sectLength + sep + diffBA.count
        func norm(_ dist: Int, _ total: Int) -> Double { total == 0 ? 100 : 100 - 100 * Double(dist) / Double(total) }
        let result = norm(Indel.distance(diffAB, diffBA), sectAB + sectBA)
        if sectLength == 0 { return result }
        let abRatio = norm(sep + diffAB.count, sectLength + sectAB)
        let baRatio = norm(sep + diffBA.count, sectLength + sectBA)
        return max(result, abRatio, baRatio)
    }

    public static func tokenSetRatio(_ a: String, _ b: String) -> Double { tokenSetRatio(a.scalarValues, b.scalarValues) }

    /// Python's ordering of strings: by code point, shorter first on a common prefix.
    static func lexicographic(_ x: Scalars, _ y: Scalars) -> Bool { x.lexicographicallyPrecedes(y) }
}
