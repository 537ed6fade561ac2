/// Jaro and Jaro-Winkler similarity (0...1), as RapidFuzz's `JaroWinkler.similarity` with
/// its default prefix weight of 0.1 over at most four common leading characters.
public enum JaroWinkler {
    public static func jaro(_ a: Scalars, _ b: Scalars) -> Double {
        if a.isEmpty && b.isEmpty { return 1 }
        if a.isEmpty || b.isEmpty { return 0 }
        let window = max(0, max(a.count, b.count) / 2 - 1)
        var aMatched = [Bool](repeating: false, count: a.count)
        var bMatched = [Bool](repeating: false, count: b.count)
        var matches = 0
        for i in 0..<a.count {
            let lo = max(0, i - window)
            let hi = min(b.count - 1, i + window)
            if lo > hi { continue }
            for j in lo...hi where !bMatched[j] && a[i] == b[j] {
                aMatched[i] = true
                bMatched[j] = true
                matches += 1
                break
            }
        }
        if matches == 0 { return 0 }
        var transpositions = 0
        var j = 0
        for i in 0..<a.count where aMatched[i] {
            while !bMatched[j] { j += 1 }
            if a[i] != b[j] { transpositions += 1 }
            j += 1
        }
        let m = Double(matches)
        return (m / Double(a.count) + m / Double(b.count) + (m - Double(transpositions / 2)) / m) / 3
    }

    public static func similarity(_ a: Scalars, _ b: Scalars, prefixWeight: Double = 0.1) -> Double {
        let j = jaro(a, b)
        // RapidFuzz applies the prefix boost only above a Jaro of 0.7.
        guard j > 0.7 else { return j }
        var prefix = 0
        while prefix < min(4, a.count, b.count), a[prefix] == b[prefix] { prefix += 1 }
        return j + Double(prefix) * prefixWeight * (1 - j)
    }
}
