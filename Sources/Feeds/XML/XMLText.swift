/// Character data with its references decoded: XML's five, numeric ones (decimal and hex),
/// and HTML's named ones that feeds use undeclared. An unknown or unterminated reference
/// ("AT&T", "&bogus;") stays as written, as a browser shows it.
enum XMLText {
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            guard c == UInt8(ascii: "&") else {
                out.append(c)
                i += 1
                continue
            }
            var j = i + 1
            while j < n && j - i <= 32 && bytes[j] != UInt8(ascii: ";") && bytes[j] != UInt8(ascii: "&") && !XMLTokenizer.isSpace(bytes[j]) { j += 1 }
            if j < n, bytes[j] == UInt8(ascii: ";"), let scalar = reference(UnsafeBufferPointer(rebasing: bytes[(i + 1)..<j])) {
                out.append(contentsOf: String(Character(scalar)).utf8)
                i = j + 1
            } else {
                out.append(c)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The character a reference's name ("amp", "#233", "#xE9") stands for.
    static func reference(_ name: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard let first = name.first else { return nil }
        if first == UInt8(ascii: "#") {
            var value: UInt32 = 0
            var digits = name.dropFirst()
            var radix: UInt32 = 10
            if let x = digits.first, x == UInt8(ascii: "x") || x == UInt8(ascii: "X") {
                radix = 16
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty, digits.count <= 8 else { return nil }
            for d in digits {
                let digit: UInt32
                switch d {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(d - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(d - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(d - UInt8(ascii: "A") + 10)
                default: return nil
                }
                value = value * radix + digit
            }
            // Windows-1252's 0x80-0x9F, which HTML reads as the characters they were meant to be.
            if (0x80...0x9F).contains(value), let meant = Windows1252.high[Int(value - 0x80)] { return Unicode.Scalar(meant) }
            guard value != 0 else { return nil }
            return Unicode.Scalar(value)
        }
        let text = String(decoding: name, as: UTF8.self)
        if text == "apos" { return "'" }
        return HTMLEntities.codePoints[text].flatMap(Unicode.Scalar.init)
    }
}
