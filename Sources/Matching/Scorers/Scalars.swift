/// Strings as the scorers see them: arrays of Unicode scalar values, the same units as
/// Python's `str` that RapidFuzz compares, so that scores agree character for character.
public typealias Scalars = [UInt32]

extension String {
    public var scalarValues: Scalars { unicodeScalars.map(\.value) }
}

/// Which bits of a pattern (up to 64 characters per word) hold each character: the core
/// of the bit-parallel algorithms (Hyyrö, Myers, Allison-Dix). ASCII is a direct table;
/// anything else goes through a small open-addressing map.
struct PatternMasks {
    /// One table per 64-character block of the pattern.
    private(set) var ascii: [[UInt64]]
    private var others: [UInt32: [UInt64]]
    /// The first block's masks for every scalar below 256, flat, for the single-word loop.
    private(set) var latin1: [UInt64]
    let length: Int
    var blockCount: Int { ascii.count }

    init(_ pattern: Scalars) {
        length = pattern.count
        let blocks = max(1, (pattern.count + 63) / 64)
        ascii = Array(repeating: Array(repeating: 0, count: 128), count: blocks)
        others = [:]
        latin1 = Array(repeating: 0, count: 256)
        for (i, c) in pattern.enumerated() {
            if i < 64, c < 256 { latin1[Int(c)] |= UInt64(1) << UInt64(i) }
            let block = i / 64
            let bit = UInt64(1) << UInt64(i % 64)
            if c < 128 {
                ascii[block][Int(c)] |= bit
            } else {
                others[c, default: Array(repeating: 0, count: blocks)][block] |= bit
            }
        }
    }

    @inline(__always)
    func mask(_ c: UInt32, block: Int) -> UInt64 {
        if c < 128 { return ascii[block][Int(c)] }
        return others[c]?[block] ?? 0
    }
}
