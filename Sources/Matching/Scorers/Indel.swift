/// The Indel distance (insertions and deletions only) and its normalized similarity, which
/// is what RapidFuzz's `fuzz.ratio` reports.
///
/// Indel distance = len1 + len2 - 2 * LCS, so everything rests on the length of the longest
/// common subsequence, computed bit-parallel (Allison-Dix / Hyyrö): one machine word holds
/// 64 pattern positions, and each character of the other string updates all of them in a
/// few instructions. Longer patterns use one word per 64 characters with carries between
/// blocks.
///
/// This is not difflib's `SequenceMatcher.ratio`, although both are 2*M/T: difflib's M is
/// found greedily (the longest matching block first, then recursively left and right of
/// it), which can miss the best alignment, while the LCS is optimal. For "aaaca" and "abaa"
/// difflib takes the block "aa" and then only finds nothing usable: 2*2/9 = 44.4, while
/// the LCS "aaa" gives 2*3/9 = 66.7, which is what RapidFuzz reports.
public enum Indel {
    /// Length of the longest common subsequence.
    public static func lcsLength(_ a: Scalars, _ b: Scalars) -> Int {
        // The shorter string is the pattern (fewer words), the longer one is streamed.
        let (pattern, text) = a.count <= b.count ? (a, b) : (b, a)
        if pattern.isEmpty { return 0 }
        return lcsLength(masks: PatternMasks(pattern), text: text)
    }

    @inline(__always)
    static func lcsLength(masks: borrowing PatternMasks, text: Scalars) -> Int {
        text.withUnsafeBufferPointer { lcsLength(masks: masks, chars: $0) }
    }

    @inline(__always)
    static func lcsLength(masks: borrowing PatternMasks, chars: UnsafeBufferPointer<UInt32>) -> Int {
        if masks.blockCount == 1 {
            var v = UInt64.max
            // The hot loop: Latin-1 characters come from a flat 256-entry table read without
            // bounds checks (a scalar < 256 always indexes inside it); others from the map.
            masks.latin1.withUnsafeBufferPointer { table in
                for c in chars {
                    let m = c < 256 ? table[Int(c)] : masks.mask(c, block: 0)
                    let u = v & m
                    v = (v &+ u) | (v & ~m)
                }
            }
            let used = masks.length == 64 ? UInt64.max : (UInt64(1) << UInt64(masks.length)) - 1
            return (~v & used).nonzeroBitCount
        }
        var v = [UInt64](repeating: UInt64.max, count: masks.blockCount)
        for c in chars {
            var carry: UInt64 = 0
            for w in 0..<v.count {
                let m = masks.mask(c, block: w)
                let u = v[w] & m
                let (sum1, o1) = v[w].addingReportingOverflow(u)
                let (sum2, o2) = sum1.addingReportingOverflow(carry)
                carry = (o1 || o2) ? 1 : 0
                v[w] = sum2 | (v[w] & ~m)
            }
        }
        var count = 0
        for w in 0..<v.count {
            let bitsInBlock = min(64, masks.length - w * 64)
            let used = bitsInBlock == 64 ? UInt64.max : (UInt64(1) << UInt64(bitsInBlock)) - 1
            count += (~v[w] & used).nonzeroBitCount
        }
        return count
    }

    public static func distance(_ a: Scalars, _ b: Scalars) -> Int {
        a.count + b.count - 2 * lcsLength(a, b)
    }

    /// 1 - distance / (len1 + len2); 1 for two empty strings.
    public static func normalizedSimilarity(_ a: Scalars, _ b: Scalars) -> Double {
        let total = a.count + b.count
        if total == 0 { return 1 }
        return 1 - Double(distance(a, b)) / Double(total)
    }
}

/// A pattern prepared once and compared with many strings (a guess against a catalog, a
/// window sliding over a title): the masks are built a single time.
public struct PreparedPattern: Sendable {
    let scalars: Scalars
    let masks: PatternMasks

    public init(_ scalars: Scalars) {
        self.scalars = scalars
        self.masks = PatternMasks(scalars)
    }

    /// Length of the longest common subsequence of the pattern and `other`.
    public func lcsLength(_ other: Scalars) -> Int { Indel.lcsLength(masks: masks, text: other) }

    /// RapidFuzz's `fuzz.ratio` of the pattern against `other` (0...100).
    public func ratio(_ other: Scalars) -> Double {
        let total = scalars.count + other.count
        if total == 0 { return 100 }
        if scalars.isEmpty || other.isEmpty { return 0 }
        return 100 * (1 - Double(total - 2 * lcsLength(other)) / Double(total))
    }

    /// `ratio` against characters stored elsewhere (a catalog's flat key storage), without copying.
    public func ratio(_ other: UnsafeBufferPointer<UInt32>) -> Double {
        let total = scalars.count + other.count
        if total == 0 { return 100 }
        if scalars.isEmpty || other.isEmpty { return 0 }
        return 100 * (1 - Double(total - 2 * Indel.lcsLength(masks: masks, chars: other)) / Double(total))
    }
}
