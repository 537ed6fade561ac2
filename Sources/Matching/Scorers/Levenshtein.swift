/// Levenshtein distance (insert, delete, substitute, each cost 1), bit-parallel for
/// patterns up to 64 characters (Myers 1999, in Hyyrö's formulation), and with an optional
/// cutoff: past it the answer is `cutoff + 1`, as RapidFuzz's `score_cutoff` does.
public enum Levenshtein {
    public static func distance(_ a: Scalars, _ b: Scalars, cutoff: Int? = nil) -> Int {
        let (pattern, text) = a.count <= b.count ? (a, b) : (b, a)
        let limit = cutoff ?? Int.max
        // The length difference is a lower bound: no need to compute past it.
        if text.count - pattern.count > limit { return limit + 1 }
        if pattern.isEmpty { return min(text.count, limit == Int.max ? text.count : limit + 1) }
        let result = pattern.count <= 64 ? myers(PatternMasks(pattern), pattern.count, text) : dynamic(pattern, text, limit: limit)
        return result > limit ? limit + 1 : result
    }

    /// Myers' algorithm: vertical positive/negative delta vectors of the DP column.
    static func myers(_ masks: PatternMasks, _ m: Int, _ text: Scalars) -> Int {
        var vp = UInt64.max
        var vn: UInt64 = 0
        var score = m
        let last = UInt64(1) << UInt64(m - 1)
        for c in text {
            let eq = masks.mask(c, block: 0)
            let d0 = (((eq & vp) &+ vp) ^ vp) | eq | vn
            var hp = vn | ~(d0 | vp)
            var hn = d0 & vp
            if hp & last != 0 { score += 1 }
            if hn & last != 0 { score -= 1 }
            hp = (hp << 1) | 1
            hn = hn << 1
            vp = hn | ~(d0 | hp)
            vn = d0 & hp
        }
        return score
    }

    /// Two-row dynamic programming for long patterns, stopping once every cell of a row
    /// exceeds the limit.
    static func dynamic(_ a: Scalars, _ b: Scalars, limit: Int) -> Int {
        var previous = Array(0...a.count)
        var current = [Int](repeating: 0, count: a.count + 1)
        for (j, cb) in b.enumerated() {
            current[0] = j + 1
            var rowMin = current[0]
            for i in 1...a.count {
                let substitution = previous[i - 1] + (a[i - 1] == cb ? 0 : 1)
                current[i] = min(substitution, previous[i] + 1, current[i - 1] + 1)
                rowMin = min(rowMin, current[i])
            }
            if rowMin > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[a.count]
    }

    /// 1 - distance / max(len1, len2), as RapidFuzz's `Levenshtein.normalized_similarity`.
    public static func normalizedSimilarity(_ a: Scalars, _ b: Scalars) -> Double {
        let longest = max(a.count, b.count)
        if longest == 0 { return 1 }
        return 1 - Double(distance(a, b)) / Double(longest)
    }
}
