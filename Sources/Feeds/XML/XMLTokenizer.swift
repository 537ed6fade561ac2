/// A lenient, incremental XML tokenizer over UTF-8 bytes, for feeds as they are published.
///
/// Real feeds break XML's rules: HTML entities never declared (`&nbsp;`), a bare `&` in a
/// title, a `<` that is not a tag, elements never closed. An XML parser stops at the first
/// such error and loses the feed; this one reads on, as feed readers and browsers do, and
/// leaves nesting to its caller.
///
/// Bytes go in as they arrive (`feed`), in pieces of any size: a tag cut between two pieces
/// waits for the rest, so memory holds the current token, not the document. A tag, comment
/// or CDATA section longer than `maxToken` is not waited for: what it started becomes text
/// (a `<` with no `>` in a megabyte is no tag).
public struct XMLTokenizer {
    /// The longest markup waited for whole.
    public static let maxToken = 1 << 20
    /// Text is handed on once this much has gathered with no tag in sight.
    static let textFlush = 1 << 16

    private var buffer: [UInt8] = []

    public init() {}

    /// Reads `bytes` (UTF-8), calling `emit` for every complete token.
    public mutating func feed(_ bytes: some Collection<UInt8>, _ emit: (XMLToken) throws -> Void) rethrows {
        buffer.append(contentsOf: bytes)
        try scan(final: false, emit)
    }

    /// The document ended: whatever is left is read as it is.
    public mutating func finish(_ emit: (XMLToken) throws -> Void) rethrows {
        try scan(final: true, emit)
        buffer.removeAll()
    }

    private mutating func scan(final: Bool, _ emit: (XMLToken) throws -> Void) rethrows {
        let consumed = try buffer.withUnsafeBufferPointer { b in try Self.scan(b, final: final, emit) }
        if consumed == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if consumed > 0 {
            buffer.removeSubrange(0..<consumed)
        }
    }

    /// Reads tokens from `b`; returns how many bytes were used (the rest waits for more).
    private static func scan(_ b: UnsafeBufferPointer<UInt8>, final: Bool, _ emit: (XMLToken) throws -> Void) rethrows -> Int {
        let n = b.count
        var i = 0
        while i < n {
            if b[i] != UInt8(ascii: "<") {
                var j = i
                while j < n && b[j] != UInt8(ascii: "<") { j += 1 }
                if j == n && !final {
                    // No tag yet: wait, unless the text is long, then hand on what is safely whole.
                    guard j - i >= textFlush else { return i }
                    let cut = safeTextEnd(b, from: i, to: n)
                    try emit(.text(XMLText.decode(UnsafeBufferPointer(rebasing: b[i..<cut]))))
                    i = cut
                    continue
                }
                try emit(.text(XMLText.decode(UnsafeBufferPointer(rebasing: b[i..<j]))))
                i = j
                continue
            }
            // At "<".
            guard i + 1 < n else { return final ? try emitLiteral(b, i, n, emit) : i }
            let next = b[i + 1]
            var end: Int?
            if next == UInt8(ascii: "!") {
                if matches(b, i, "<!--") {
                    end = find(b, "-->", from: i + 4).map { $0 + 3 }
                } else if matches(b, i, "<![CDATA[") {
                    if let close = find(b, "]]>", from: i + 9) {
                        try emit(.text(String(decoding: UnsafeBufferPointer(rebasing: b[(i + 9)..<close]), as: UTF8.self)))
                        i = close + 3
                        continue
                    }
                } else if i + 9 > n && !final && isPrefix(b, i, of: "<![CDATA[") {
                    return i  // too short to tell a CDATA section from other markup
                } else {
                    end = declarationEnd(b, from: i + 2)
                }
            } else if next == UInt8(ascii: "?") {
                end = find(b, "?>", from: i + 2).map { $0 + 2 }
            } else if next == UInt8(ascii: "/") || isNameStart(next) {
                switch tagEnd(b, from: i + 1) {
                case .at(let close):
                    if next == UInt8(ascii: "/") {
                        try emit(.end(name: nameBytes(b, from: i + 2, to: close)))
                    } else {
                        try emit(startTag(b, from: i + 1, to: close))
                    }
                    i = close + 1
                    continue
                case .broken:
                    try emit(.text("<"))
                    i += 1
                    continue
                case .needMore:
                    break
                }
            } else {
                // "<" that starts no markup ("a < b", "<3"): it is text.
                try emit(.text("<"))
                i += 1
                continue
            }
            if let end {
                i = end
                continue
            }
            // Unfinished markup: wait for more, unless it is already too long or the document ended.
            if !final && n - i < maxToken { return i }
            try emit(.text("<"))
            i += 1
        }
        return i
    }

    private static func emitLiteral(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ n: Int, _ emit: (XMLToken) throws -> Void) rethrows -> Int {
        try emit(.text(String(decoding: UnsafeBufferPointer(rebasing: b[i..<n]), as: UTF8.self)))
        return n
    }

    /// Where text may be cut without splitting a UTF-8 sequence or an entity.
    private static func safeTextEnd(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var cut = end
        // An entity is at most a few dozen bytes: do not cut after an "&" with no ";" yet.
        var k = end - 1
        while k > start && end - k < 40 {
            if b[k] == UInt8(ascii: ";") { break }
            if b[k] == UInt8(ascii: "&") {
                cut = k
                break
            }
            k -= 1
        }
        // Back off continuation bytes to the start of a character.
        while cut > start && b[cut - 1] & 0xC0 == 0x80 { cut -= 1 }
        if cut > start && b[cut - 1] >= 0xC0 { cut -= 1 }
        return cut > start ? cut : end
    }

    static func isNameStart(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) || c == UInt8(ascii: "_")
            || c == UInt8(ascii: ":") || c >= 0x80
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    private static func matches(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count <= b.count else { return false }
        return text.withUTF8Buffer { pattern in
            for k in 0..<count where b[i + k] != pattern[k] { return false }
            return true
        }
    }

    /// Whether the bytes from `i` to the end are the start of `text` (more may complete it).
    private static func isPrefix(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, of text: StaticString) -> Bool {
        text.withUTF8Buffer { pattern in
            var k = 0
            while i + k < b.count && k < pattern.count {
                if b[i + k] != pattern[k] { return false }
                k += 1
            }
            return true
        }
    }

    /// The index of `text` at or after `from`, or nil.
    private static func find(_ b: UnsafeBufferPointer<UInt8>, _ text: StaticString, from: Int) -> Int? {
        text.withUTF8Buffer { pattern in
            let first = pattern[0]
            var i = from
            let last = b.count - pattern.count
            while i <= last {
                if b[i] == first {
                    var k = 1
                    while k < pattern.count && b[i + k] == pattern[k] { k += 1 }
                    if k == pattern.count { return i }
                }
                i += 1
            }
            return nil
        }
    }

    /// The end of `<!DOCTYPE …>` or other declaration, past an internal subset in brackets.
    private static func declarationEnd(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var depth = 0
        var i = from
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth = max(0, depth - 1)
            case UInt8(ascii: ">") where depth == 0: return i + 1
            default: break
            }
            i += 1
        }
        return nil
    }

    enum TagEnd {
        case at(Int)
        /// The buffer ends inside the tag.
        case needMore
        /// A "<" inside the tag: this "<" began no tag ("<b <i>").
        case broken
    }

    /// The ">" that closes a tag whose name starts at `from`, past quoted attribute values.
    /// A quote left open is given up at the next ">" once another tag begins (a typo must not
    /// eat the document).
    private static func tagEnd(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> TagEnd {
        var i = from
        var quote: UInt8 = 0
        var firstGreater: Int?
        while i < b.count {
            let c = b[i]
            if quote != 0 {
                if c == quote {
                    quote = 0
                } else if c == UInt8(ascii: ">") && firstGreater == nil {
                    firstGreater = i
                } else if c == UInt8(ascii: "<"), let firstGreater {
                    return .at(firstGreater)  // the next tag began: the quote was never closed
                }
            } else if c == UInt8(ascii: ">") {
                return .at(i)
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == UInt8(ascii: "<") {
                return .broken
            }
            i += 1
        }
        return .needMore
    }

    private static func nameBytes(_ b: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) -> String {
        var i = from
        while i < end && isSpace(b[i]) { i += 1 }
        var j = i
        while j < end && !isSpace(b[j]) && b[j] != UInt8(ascii: "/") { j += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: b[i..<j]), as: UTF8.self)
    }

    /// A start tag from its name to just before its ">".
    private static func startTag(_ b: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) -> XMLToken {
        var last = end
        var selfClosing = false
        if last > from && b[last - 1] == UInt8(ascii: "/") {
            selfClosing = true
            last -= 1
        }
        var i = from
        while i < last && !isSpace(b[i]) && b[i] != UInt8(ascii: "/") { i += 1 }
        let name = String(decoding: UnsafeBufferPointer(rebasing: b[from..<i]), as: UTF8.self)
        var attributes: [XMLAttribute] = []
        while i < last {
            while i < last && (isSpace(b[i]) || b[i] == UInt8(ascii: "/")) { i += 1 }
            guard i < last else { break }
            let nameStart = i
            while i < last && !isSpace(b[i]) && b[i] != UInt8(ascii: "=") { i += 1 }
            let attributeName = String(decoding: UnsafeBufferPointer(rebasing: b[nameStart..<i]), as: UTF8.self)
            while i < last && isSpace(b[i]) { i += 1 }
            guard i < last, b[i] == UInt8(ascii: "=") else {
                attributes.append(XMLAttribute(name: attributeName, value: ""))  // HTML's bare attribute
                continue
            }
            i += 1
            while i < last && isSpace(b[i]) { i += 1 }
            guard i < last else {
                attributes.append(XMLAttribute(name: attributeName, value: ""))
                break
            }
            let valueStart: Int
            let valueEnd: Int
            if b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") {
                let quote = b[i]
                valueStart = i + 1
                var j = valueStart
                while j < last && b[j] != quote { j += 1 }
                valueEnd = j
                i = min(last, j + 1)
            } else {
                valueStart = i
                while i < last && !isSpace(b[i]) { i += 1 }
                valueEnd = i
            }
            attributes.append(XMLAttribute(name: attributeName, value: XMLText.decode(UnsafeBufferPointer(rebasing: b[valueStart..<valueEnd]))))
        }
        return .start(name: name, attributes: attributes, selfClosing: selfClosing)
    }
}
