/// DEFLATE (RFC 1951) decompression, for the files inside ePubs (ZIP) and PDF streams
/// (FlateDecode, after their two-byte zlib header). Mark Adler's puff, in safe Swift: stored,
/// fixed and dynamic Huffman blocks, bounded output, and a clear error for any damage
/// (`ArticleError.unreadable`), never a trap.
enum Inflate {
    /// Decompresses raw DEFLATE data, producing at most `limit` bytes.
    static func inflate(_ input: [UInt8], limit: Int) throws(ArticleError) -> [UInt8] {
        var state = State(input: input, limit: limit)
        var last = false
        repeat {
            last = try state.bits(1) == 1
            switch try state.bits(2) {
            case 0: try state.stored()
            case 1: try state.codes(Huffman.fixedLength, Huffman.fixedDistance)
            case 2: try state.dynamic()
            default: throw .unreadable("damaged compressed data (a block of an unknown kind)")
            }
        } while !last
        return state.output
    }

    /// zlib's wrapping (RFC 1950): a two-byte header, the DEFLATE data, an Adler-32 (not checked).
    static func zlib(_ input: [UInt8], limit: Int) throws(ArticleError) -> [UInt8] {
        guard input.count >= 2, input[0] & 0x0F == 8, (UInt16(input[0]) << 8 | UInt16(input[1])) % 31 == 0 else {
            // Some PDF writers leave the header out: read it as raw DEFLATE.
            return try inflate(input, limit: limit)
        }
        return try inflate(Array(input.dropFirst(2)), limit: limit)
    }

    struct Huffman {
        var counts: [Int]
        var symbols: [Int]

        /// Canonical codes from each symbol's code length (0: unused).
        init(lengths: [Int]) throws(ArticleError) {
            counts = [Int](repeating: 0, count: 16)
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var left = 1
            for length in 1...15 {
                left <<= 1
                left -= counts[length]
                if left < 0 { throw .unreadable("damaged compressed data (an over-full code)") }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        static let fixedLength: Huffman = {
            var lengths = [Int](repeating: 8, count: 288)
            for i in 144..<256 { lengths[i] = 9 }
            for i in 256..<280 { lengths[i] = 7 }
            return (try? Huffman(lengths: lengths)) ?? Huffman(counts: [Int](repeating: 0, count: 16), symbols: [])
        }()
        static let fixedDistance: Huffman =
            (try? Huffman(lengths: [Int](repeating: 5, count: 30))) ?? Huffman(counts: [Int](repeating: 0, count: 16), symbols: [])

        private init(counts: [Int], symbols: [Int]) {
            self.counts = counts
            self.symbols = symbols
        }
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    struct State {
        let input: [UInt8]
        let limit: Int
        var output: [UInt8] = []
        var position = 0
        var bitBuffer = 0
        var bitCount = 0

        init(input: [UInt8], limit: Int) {
            self.input = input
            self.limit = limit
        }

        mutating func bits(_ need: Int) throws(ArticleError) -> Int {
            var value = bitBuffer
            while bitCount < need {
                guard position < input.count else { throw .unreadable("compressed data cut short") }
                value |= Int(input[position]) << bitCount
                position += 1
                bitCount += 8
            }
            bitBuffer = value >> need
            bitCount -= need
            return value & ((1 << need) - 1)
        }

        mutating func append(_ byte: UInt8) throws(ArticleError) {
            guard output.count < limit else { throw .unreadable("a compressed part is larger than \(limit / 1_000_000) MB") }
            output.append(byte)
        }

        mutating func stored() throws(ArticleError) {
            bitBuffer = 0
            bitCount = 0
            guard position + 4 <= input.count else { throw .unreadable("compressed data cut short") }
            let length = Int(input[position]) | Int(input[position + 1]) << 8
            let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
            guard length == (~complement & 0xFFFF) else { throw .unreadable("damaged compressed data (a stored block's length)") }
            position += 4
            guard position + length <= input.count else { throw .unreadable("compressed data cut short") }
            guard output.count + length <= limit else { throw .unreadable("a compressed part is larger than \(limit / 1_000_000) MB") }
            output.append(contentsOf: input[position..<position + length])
            position += length
        }

        mutating func decode(_ h: Huffman) throws(ArticleError) -> Int {
            var code = 0
            var first = 0
            var index = 0
            for length in 1...15 {
                code |= try bits(1)
                let count = h.counts[length]
                if code - count < first { return h.symbols[index + (code - first)] }
                index += count
                first += count
                first <<= 1
                code <<= 1
            }
            throw .unreadable("damaged compressed data (no such code)")
        }

        mutating func codes(_ lengths: Huffman, _ distances: Huffman) throws(ArticleError) {
            while true {
                let symbol = try decode(lengths)
                if symbol < 256 {
                    try append(UInt8(symbol))
                } else if symbol == 256 {
                    return
                } else {
                    let s = symbol - 257
                    guard s < 29 else { throw .unreadable("damaged compressed data (a length out of range)") }
                    let length = Inflate.lengthBase[s] + (try bits(Inflate.lengthExtra[s]))
                    let d = try decode(distances)
                    guard d < 30 else { throw .unreadable("damaged compressed data (a distance out of range)") }
                    let distance = Inflate.distanceBase[d] + (try bits(Inflate.distanceExtra[d]))
                    guard distance <= output.count else { throw .unreadable("damaged compressed data (a distance too far back)") }
                    guard output.count + length <= limit else { throw .unreadable("a compressed part is larger than \(limit / 1_000_000) MB") }
                    let start = output.count - distance
                    for i in 0..<length { output.append(output[start + i]) }
                }
            }
        }

        mutating func dynamic() throws(ArticleError) {
            let literalCount = try bits(5) + 257
            let distanceCount = try bits(5) + 1
            let codeCount = try bits(4) + 4
            guard literalCount <= 286, distanceCount <= 30 else { throw .unreadable("damaged compressed data (too many codes)") }
            var lengths = [Int](repeating: 0, count: 320)
            for i in 0..<codeCount { lengths[Inflate.order[i]] = try bits(3) }
            let lengthCode = try Huffman(lengths: Array(lengths[0..<19]))
            var index = 0
            while index < literalCount + distanceCount {
                var symbol = try decode(lengthCode)
                if symbol < 16 {
                    lengths[index] = symbol
                    index += 1
                    continue
                }
                var value = 0
                if symbol == 16 {
                    guard index > 0 else { throw .unreadable("damaged compressed data (a repeat with nothing before it)") }
                    value = lengths[index - 1]
                    symbol = 3 + (try bits(2))
                } else if symbol == 17 {
                    symbol = 3 + (try bits(3))
                } else {
                    symbol = 11 + (try bits(7))
                }
                guard index + symbol <= literalCount + distanceCount else { throw .unreadable("damaged compressed data (too many lengths)") }
                for _ in 0..<symbol {
                    lengths[index] = value
                    index += 1
                }
            }
            guard lengths[256] != 0 else { throw .unreadable("damaged compressed data (no end-of-block code)") }
            let literal = try Huffman(lengths: Array(lengths[0..<literalCount]))
            let distance = try Huffman(lengths: Array(lengths[literalCount..<literalCount + distanceCount]))
            try codes(literal, distance)
        }
    }
}
