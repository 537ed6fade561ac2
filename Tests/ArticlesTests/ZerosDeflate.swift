/// A zlib stream of `count` zero bytes at DEFLATE's best ratio (about 1,000 to 1), written
/// directly rather than by compressing a buffer that large: one dynamic Huffman block whose
/// codes are a literal 0, "length 258 at distance 1" in two bits, and the end. A 60 MB stream
/// is 61 KB, the shape of the bomb in issue 37.
enum ZerosDeflate {
    static func zlib(count: Int) -> [UInt8] {
        var bits = Bits()
        bits.put(1, 1)  // the last block
        bits.put(2, 2)  // dynamic Huffman
        bits.put(29, 5)  // 286 literal/length codes (up to 285, length 258)
        bits.put(0, 5)  // one distance code
        bits.put(14, 4)  // 18 code-length code lengths, in their order:
        // 16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1 (18: one bit, 1 and 2: two bits)
        for length in [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2] { bits.put(length, 3) }
        // Code-length codes (canonical): 18 is "0", 1 is "10", 2 is "11".
        // Literal/length lengths: 0 → 2, 1...255 → none, 256 → 2, 257...284 → none, 285 → 1;
        // then the one distance code's length, 1.
        bits.code(0b11, 2)
        bits.code(0, 1)
        bits.put(138 - 11, 7)
        bits.code(0, 1)
        bits.put(117 - 11, 7)
        bits.code(0b11, 2)
        bits.code(0, 1)
        bits.put(28 - 11, 7)
        bits.code(0b10, 2)
        bits.code(0b10, 2)
        // The data (canonical codes: 285 "0", literal 0 "10", end "11"; distance 0 "0").
        let matches = max(0, count - 1) / 258
        let rest = max(0, count - 1) % 258
        if count > 0 { bits.code(0b10, 2) }
        for _ in 0..<matches {
            bits.code(0, 1)
            bits.code(0, 1)
        }
        for _ in 0..<rest { bits.code(0b10, 2) }
        bits.code(0b11, 2)
        let adler = UInt32(count % 65521) << 16 | 1
        return [0x78, 0x9C] + bits.bytes + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    /// DEFLATE's bit order: fields from their least significant bit, Huffman codes from their
    /// most significant.
    struct Bits {
        var bytes: [UInt8] = []
        var used = 8

        mutating func put(_ value: Int, _ count: Int) {
            for i in 0..<count {
                if used == 8 {
                    bytes.append(0)
                    used = 0
                }
                if value >> i & 1 == 1 { bytes[bytes.count - 1] |= 1 << used }
                used += 1
            }
        }

        mutating func code(_ code: Int, _ length: Int) {
            for i in (0..<length).reversed() { put(code >> i & 1, 1) }
        }
    }
}
