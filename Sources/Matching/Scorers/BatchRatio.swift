/// `fuzz.ratio` of one pattern against many strings (RapidFuzz's cdist row). The pattern's
/// table is opened once for the whole batch, so no reference counting happens per pair:
/// at 30 characters a comparison is ~30 table reads and a handful of register operations,
/// and per-call retains would cost as much again.
extension PreparedPattern {
    public func ratios(_ others: [Scalars]) -> [Double] {
        guard masks.blockCount == 1, !scalars.isEmpty else { return others.map { ratio($0) } }
        let patternLength = scalars.count
        let used = patternLength == 64 ? UInt64.max : (UInt64(1) << UInt64(patternLength)) - 1
        return masks.latin1.withUnsafeBufferPointer { table in
            others.map { other -> Double in
                if other.isEmpty { return 0 }
                var v = UInt64.max
                other.withUnsafeBufferPointer { chars in
                    for c in chars {
                        let m = c < 256 ? table[Int(c)] : masks.mask(c, block: 0)
                        v = (v &+ (v & m)) | (v & ~m)
                    }
                }
                let total = patternLength + other.count
                return 100 * (1 - Double(total - 2 * (~v & used).nonzeroBitCount) / Double(total))
            }
        }
    }
}
