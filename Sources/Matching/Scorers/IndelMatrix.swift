/// `fuzz.ratio` for every pair of two lists (RapidFuzz's `cdist`), with several short
/// queries packed into the lanes of one SIMD vector.
///
/// The bit-parallel LCS step (u = v & m; v = (v + u) | (v & ~m)) is the same for each lane,
/// so queries of up to 8 characters share a vector of 8-bit lanes, up to 16 of 16-bit lanes,
/// and so on: each character of a choice then advances 8 to 64 comparisons at once. This is
/// what RapidFuzz does with AVX2. Juke uses 128-bit vectors (what every x86-64 and ARM64
/// processor has) but advances four of them per character: the step is bound by its latency
/// (and, add, or), so four independent chains keep the processor as busy as wider registers.
/// Queries longer than 64 characters use the blockwise scalar path.
public enum IndelMatrix {
    /// Row-major scores: `result[i * choices.count + j]` is `fuzz.ratio(queries[i], choices[j])`.
    public static func ratios(queries: [Scalars], choices: [Scalars]) -> [Double] {
        var result = [Double](repeating: 0, count: queries.count * choices.count)
        if result.isEmpty { return result }
        // Queries grouped by the narrowest lane that holds them.
        var byWidth: [Int: [Int]] = [:]
        for (i, q) in queries.enumerated() {
            let width = q.count <= 8 ? 8 : q.count <= 16 ? 16 : q.count <= 32 ? 32 : q.count <= 64 ? 64 : 0
            byWidth[width, default: []].append(i)
        }
        result.withUnsafeMutableBufferPointer { out in
            for (width, members) in byWidth {
                switch width {
                case 8: run(SIMD16<UInt8>.self, members, queries, choices, out)
                case 16: run(SIMD8<UInt16>.self, members, queries, choices, out)
                case 32: run(SIMD4<UInt32>.self, members, queries, choices, out)
                case 64: run(SIMD2<UInt64>.self, members, queries, choices, out)
                default:
                    for i in members {
                        let pattern = PreparedPattern(queries[i])
                        for (j, c) in choices.enumerated() { out[i * choices.count + j] = pattern.ratio(c) }
                    }
                }
            }
        }
        return result
    }

    /// Vectors advanced side by side per character: four independent dependency chains.
    static let chains = 4

    private static func run<V: LCSLanes>(
        _: V.Type, _ members: [Int], _ queries: [Scalars], _ choices: [Scalars], _ out: UnsafeMutableBufferPointer<Double>
    ) {
        let lanes = V.scalarCount * chains
        var start = 0
        while start < members.count {
            let group = Array(members[start..<min(members.count, start + lanes)])
            start += lanes
            runGroup(V.self, group, queries, choices, out)
        }
    }

    @inline(__always)
    private static func runGroup<V: LCSLanes>(
        _: V.Type, _ group: [Int], _ queries: [Scalars], _ choices: [Scalars], _ out: UnsafeMutableBufferPointer<Double>
    ) {
        // Query k sits in vector k / scalarCount, lane k % scalarCount. Bit i of its lane in
        // table[c * chains + vector] is set when the query has character c at position i.
        let width = V.scalarCount
        var table = [V](repeating: V(), count: 256 * chains)
        var others: [UInt32: [V]] = [:]
        var used = [V](repeating: V(), count: chains)
        var lengths = [Int](repeating: 0, count: width * chains)
        for (k, q) in group.enumerated() {
            let chars = queries[q]
            let (vector, lane) = (k / width, k % width)
            lengths[k] = chars.count
            used[vector][lane] = chars.count == V.Scalar.bitWidth ? V.Scalar.max : (V.Scalar(1) << V.Scalar(chars.count)) &- 1
            for (i, c) in chars.enumerated() {
                let bit = V.Scalar(1) << V.Scalar(i)
                if c < 256 {
                    table[Int(c) * chains + vector][lane] |= bit
                } else {
                    others[c, default: [V](repeating: V(), count: chains)][vector][lane] |= bit
                }
            }
        }
        let ones = V(repeating: V.Scalar.max)
        let n = choices.count
        table.withUnsafeBufferPointer { table in
            for (j, choice) in choices.enumerated() {
                var (v0, v1, v2, v3) = (ones, ones, ones, ones)
                choice.withUnsafeBufferPointer { chars in
                    for c in chars {
                        if c < 256 {
                            let base = Int(c) &* 4
                            v0 = V.step(v0, table[base])
                            v1 = V.step(v1, table[base &+ 1])
                            v2 = V.step(v2, table[base &+ 2])
                            v3 = V.step(v3, table[base &+ 3])
                        } else if let m = others[c] {
                            v0 = V.step(v0, m[0])
                            v1 = V.step(v1, m[1])
                            v2 = V.step(v2, m[2])
                            v3 = V.step(v3, m[3])
                        } else {
                            // A character no query of the group has: every lane's m is 0.
                            v0 = V.step(v0, V())
                            v1 = V.step(v1, V())
                            v2 = V.step(v2, V())
                            v3 = V.step(v3, V())
                        }
                    }
                }
                let common = (V.unset(v0, within: used[0]), V.unset(v1, within: used[1]), V.unset(v2, within: used[2]), V.unset(v3, within: used[3]))
                let choiceLength = choice.count
                // Lanes read from memory: indexing a vector by a variable lane would copy the
                // whole vector to the stack for every lane.
                withUnsafeBytes(of: common) { raw in
                    for k in 0..<group.count {
                        let total = lengths[k] + choiceLength
                        let score: Double
                        if total == 0 {
                            score = 100
                        } else if lengths[k] == 0 || choiceLength == 0 {
                            score = 0
                        } else {
                            let lcs = raw.load(fromByteOffset: k * MemoryLayout<V.Scalar>.stride, as: V.Scalar.self).nonzeroBitCount
                            score = 100 * (1 - Double(total - 2 * lcs) / Double(total))
                        }
                        out[group[k] * n + j] = score
                    }
                }
            }
        }
    }
}

/// The LCS step written once per concrete 128-bit vector type. The standard library's
/// bitwise operators are only turned into single instructions for vectors of one register
/// (wider ones run lane by lane), and generic code would get the lane-by-lane protocol
/// defaults, so each type states the step itself. `~` has no fast form at all, so v & ~m
/// is written v ^ (v & m).
protocol LCSLanes: SIMD where Scalar: FixedWidthInteger & UnsignedInteger {
    static func step(_ v: Self, _ m: Self) -> Self
    static func unset(_ v: Self, within used: Self) -> Self
}

extension SIMD16<UInt8>: LCSLanes {
    @inline(__always) static func step(_ v: Self, _ m: Self) -> Self { let u = v & m; return (v &+ u) | (v ^ u) }
    @inline(__always) static func unset(_ v: Self, within used: Self) -> Self { (v & used) ^ used }
}

extension SIMD8<UInt16>: LCSLanes {
    @inline(__always) static func step(_ v: Self, _ m: Self) -> Self { let u = v & m; return (v &+ u) | (v ^ u) }
    @inline(__always) static func unset(_ v: Self, within used: Self) -> Self { (v & used) ^ used }
}

extension SIMD4<UInt32>: LCSLanes {
    @inline(__always) static func step(_ v: Self, _ m: Self) -> Self { let u = v & m; return (v &+ u) | (v ^ u) }
    @inline(__always) static func unset(_ v: Self, within used: Self) -> Self { (v & used) ^ used }
}

extension SIMD2<UInt64>: LCSLanes {
    @inline(__always) static func step(_ v: Self, _ m: Self) -> Self { let u = v & m; return (v &+ u) | (v ^ u) }
    @inline(__always) static func unset(_ v: Self, within used: Self) -> Self { (v & used) ^ used }
}
