/// Reads PDF objects from bytes (ISO 32000-1, 7.2-7.3), leniently: what a damaged file breaks is
/// skipped where it can be, and nothing is trusted (every length and depth is bounded).
struct PDFLexer {
    let bytes: [UInt8]
    var at: Int
    static let maxDepth = 64
    /// Tokens read so far, and the most this lexer reads before it answers `.end`: a reader
    /// bounds its work by count (an object in the file scan, a page's content stream), so a
    /// crafted file costs at most that, however it nests.
    var tokens = 0
    var tokenLimit = Int.max

    init(_ bytes: [UInt8], at: Int = 0) {
        self.bytes = bytes
        self.at = at
    }

    static func isWhite(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0x0C || b == 0x00 }
    static func isDelimiter(_ b: UInt8) -> Bool { "()<>[]{}/%".utf8.contains(b) }

    mutating func skipWhite() {
        while at < bytes.count {
            if Self.isWhite(bytes[at]) {
                at += 1
            } else if bytes[at] == 0x25 {  // % comment to the end of the line
                while at < bytes.count, bytes[at] != 0x0A, bytes[at] != 0x0D { at += 1 }
            } else {
                return
            }
        }
    }

    /// A token that is not an object: an operator or keyword ("obj", "R", "Tj", "BT").
    enum Token: Equatable {
        case object(PDFObject)
        case keyword(String)
        case arrayEnd
        case dictionaryEnd
        case end
    }

    mutating func token(depth: Int = 0) -> Token {
        skipWhite()
        guard at < bytes.count, tokens < tokenLimit else { return .end }
        tokens += 1
        let b = bytes[at]
        switch b {
        case 0x2F:  // /Name
            at += 1
            var name: [UInt8] = []
            while at < bytes.count, !Self.isWhite(bytes[at]), !Self.isDelimiter(bytes[at]) {
                if bytes[at] == 0x23, at + 2 < bytes.count, let h = Self.hex(bytes[at + 1]), let l = Self.hex(bytes[at + 2]) {
                    name.append(h << 4 | l)
                    at += 3
                } else {
                    name.append(bytes[at])
                    at += 1
                }
            }
            return .object(.name(String(decoding: name, as: UTF8.self)))
        case 0x28: return .object(.string(literalString()))
        case 0x3C:
            if at + 1 < bytes.count, bytes[at + 1] == 0x3C {
                at += 2
                return .object(dictionary(depth: depth + 1))
            }
            return .object(.string(hexString()))
        case 0x3E:
            at += at + 1 < bytes.count && bytes[at + 1] == 0x3E ? 2 : 1
            return .dictionaryEnd
        case 0x5B:
            at += 1
            guard depth < Self.maxDepth else { return .object(.null) }
            var items: [PDFObject] = []
            while true {
                switch token(depth: depth + 1) {
                case .object(let o): items.append(o)
                case .keyword("R"):
                    // "n g R" inside an array: the two numbers before it were a reference.
                    if items.count >= 2, let n = items[items.count - 2].int {
                        items.removeLast(2)
                        items.append(.reference(n))
                    }
                case .keyword(let word) where Self.endsObject(word):
                    at -= word.utf8.count
                    return .object(.array(items))
                case .keyword: continue
                case .arrayEnd, .end: return .object(.array(items))
                case .dictionaryEnd: continue
                }
            }
        case 0x5D:
            at += 1
            return .arrayEnd
        case 0x7B, 0x7D:
            at += 1
            return .keyword(String(UnicodeScalar(b)))
        default:
            let start = at
            while at < bytes.count, !Self.isWhite(bytes[at]), !Self.isDelimiter(bytes[at]) { at += 1 }
            if at == start {
                at += 1
                return .keyword("")
            }
            let word = String(decoding: bytes[start..<at], as: UTF8.self)
            if let first = word.utf8.first, (first >= 0x30 && first <= 0x39) || first == 0x2B || first == 0x2D || first == 0x2E, let value = Double(word) {
                return .object(.number(value))
            }
            switch word {
            case "true": return .object(.bool(true))
            case "false": return .object(.bool(false))
            case "null": return .object(.null)
            default: return .keyword(word)
            }
        }
    }

    /// Keywords that never stand inside an array or a dictionary: one left open ends there
    /// (and the keyword is read again by whoever reads next), so a damaged or crafted object
    /// cannot swallow the objects after it, and the file scan stays linear.
    static func endsObject(_ word: String) -> Bool { word == "obj" || word == "endobj" || word == "stream" || word == "endstream" }

    mutating func dictionary(depth: Int) -> PDFObject {
        var out: [String: PDFObject] = [:]
        var key: String?
        var values: [PDFObject] = []
        func flush() {
            if let key, let value = values.last { out[key] = value }
            values = []
        }
        guard depth < Self.maxDepth else { return .dictionary([:]) }
        while true {
            switch token(depth: depth) {
            case .object(.name(let name)) where key == nil || !values.isEmpty:
                flush()
                key = name
            case .object(let o): values.append(o)
            case .keyword("R"):
                if values.count >= 2, let n = values[values.count - 2].int {
                    values.removeLast(2)
                    values.append(.reference(n))
                }
            case .keyword(let word) where Self.endsObject(word):
                at -= word.utf8.count
                flush()
                return .dictionary(out)
            case .keyword: continue
            case .arrayEnd: continue
            case .dictionaryEnd, .end:
                flush()
                return .dictionary(out)
            }
        }
    }

    mutating func literalString() -> [UInt8] {
        at += 1
        var out: [UInt8] = []
        var depth = 1
        while at < bytes.count {
            let b = bytes[at]
            at += 1
            switch b {
            case 0x28:
                depth += 1
                out.append(b)
            case 0x29:
                depth -= 1
                if depth == 0 { return out }
                out.append(b)
            case 0x5C:
                guard at < bytes.count else { return out }
                let e = bytes[at]
                at += 1
                switch e {
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x0D: if at < bytes.count, bytes[at] == 0x0A { at += 1 }
                case 0x0A: break
                case 0x30...0x37:
                    var value = Int(e - 0x30)
                    for _ in 0..<2 where at < bytes.count && (0x30...0x37).contains(bytes[at]) {
                        value = value * 8 + Int(bytes[at] - 0x30)
                        at += 1
                    }
                    out.append(UInt8(value & 0xFF))
                default: out.append(e)
                }
            default: out.append(b)
            }
        }
        return out
    }

    mutating func hexString() -> [UInt8] {
        at += 1
        var out: [UInt8] = []
        var high: UInt8?
        while at < bytes.count, bytes[at] != 0x3E {
            if let v = Self.hex(bytes[at]) {
                if let h = high {
                    out.append(h << 4 | v)
                    high = nil
                } else {
                    high = v
                }
            }
            at += 1
        }
        at += 1
        if let h = high { out.append(h << 4) }
        return out
    }

    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }
}
