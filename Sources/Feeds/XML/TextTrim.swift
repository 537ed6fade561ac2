import Matching

/// Feeds trim titles, links and attributes by Matching's `Whitespace` (Unicode's white space,
/// the no-break space included, without Foundation).
extension String {
    var trimmed: String { Whitespace.trimmed(self) }
}

/// UTF-8 validity, checked over raw bytes (the encoding sniff looks at the first 64 kB).
enum UTF8Check {
    /// How many leading bytes are valid UTF-8.
    static func validPrefixLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if c < 0x80 {
                i += 1
                continue
            }
            let length: Int
            let low: UInt8
            let high: UInt8
            switch c {
            case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
            case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
            case 0xED: (length, low, high) = (3, 0x80, 0x9F)
            case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
            case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
            default: return i
            }
            guard i + length <= n else { return i }
            guard bytes[i + 1] >= low && bytes[i + 1] <= high else { return i }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return n
    }
}
