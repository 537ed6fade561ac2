/// Whitespace trimmed from both ends, as feed readers trim titles and links (Unicode's white
/// space, the no-break space included). Foundation's `trimmingCharacters(in:)` goes through
/// UTF-16 on Linux; a feed has tens of thousands of fields.
extension String {
    var trimmed: String {
        // Most text starts and ends with a visible ASCII character: decided from two bytes.
        let bytes = utf8
        guard let firstByte = bytes.first, let lastByte = bytes.last else { return self }
        if firstByte > 0x20 && firstByte < 0x7F && lastByte > 0x20 && lastByte < 0x7F { return self }
        let scalars = unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return self }
        if !first.properties.isWhitespace && !last.properties.isWhitespace { return self }
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end && scalars[start].properties.isWhitespace { start = scalars.index(after: start) }
        while end > start && scalars[scalars.index(before: end)].properties.isWhitespace { end = scalars.index(before: end) }
        return String(scalars[start..<end])
    }
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
