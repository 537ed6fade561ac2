/// A PDF file's objects, found by reading the file itself rather than trusting its cross-
/// reference table (damaged and hand-edited files get that wrong): every `n g obj … endobj`,
/// and the objects packed in object streams (PDF 1.5). The catalog comes from the trailer (or
/// the cross-reference stream), else from the object that says it is one.
struct PDFDocument {
    private(set) var objects: [Int: PDFObject] = [:]
    private(set) var trailer: [String: PDFObject] = [:]
    /// The most bytes a stream may decode to.
    static let streamLimit = 64 * 1024 * 1024

    init(_ bytes: [UInt8]) throws(ArticleError) {
        guard bytes.count >= 8, Self.find(Array("%PDF-".utf8), in: Array(bytes.prefix(1024)), from: 0) != nil else {
            throw .unreadable("not a PDF (no %PDF- header)")
        }
        var packed: [Int] = []
        var i = 0
        let obj = Array(" obj".utf8)
        while let found = Self.find(obj, in: bytes, from: i) {
            i = found + obj.count
            // Walk back over "g" and "n".
            guard let (number, _) = Self.numbersBefore(bytes, found) else { continue }
            var lexer = PDFLexer(bytes, at: found + obj.count)
            guard case .object(var object) = lexer.token() else { continue }
            // A stream follows its dictionary.
            var after = lexer
            if case .keyword("stream") = after.token(), case .dictionary(let d) = object {
                var start = after.at
                if start < bytes.count, bytes[start] == 0x0D { start += 1 }
                if start < bytes.count, bytes[start] == 0x0A { start += 1 }
                var end = Self.find(Array("endstream".utf8), in: bytes, from: start) ?? bytes.count
                if let length = d["Length"]?.int, length >= 0, start + length <= bytes.count,
                    Self.find(Array("endstream".utf8), in: bytes, from: start + length) != nil,
                    (Self.find(Array("endstream".utf8), in: bytes, from: start + length) ?? 0) - (start + length) < 16
                {
                    end = start + length
                }
                object = .stream(d, Array(bytes[start..<end]))
                i = end
            }
            objects[number] = object
            if object["Type"]?.name == "ObjStm" { packed.append(number) }
            if object["Type"]?.name == "XRef", let root = object["Root"] { trailer["Root"] = root; trailer["Info"] = object["Info"] ?? trailer["Info"] }
        }
        for number in packed { unpack(number) }
        // The classic trailer(s): the last one wins.
        var t = 0
        let word = Array("trailer".utf8)
        while let found = Self.find(word, in: bytes, from: t) {
            t = found + word.count
            var lexer = PDFLexer(bytes, at: t)
            if case .object(.dictionary(let d)) = lexer.token() {
                for (key, value) in d where key == "Root" || key == "Info" { trailer[key] = value }
            }
        }
        if trailer["Root"] == nil, let catalog = objects.first(where: { $0.value["Type"]?.name == "Catalog" })?.key {
            trailer["Root"] = .reference(catalog)
        }
        guard trailer["Root"] != nil else { throw .unreadable("a damaged PDF (no catalog)") }
    }

    /// The objects packed in an object stream.
    mutating func unpack(_ number: Int) {
        guard case .stream(let d, _)? = objects[number], let data = try? decode(objects[number] ?? .null), let count = d["N"]?.int, let first = d["First"]?.int,
            count >= 0, count < 1_000_000, first >= 0, first <= data.count
        else { return }
        var header = PDFLexer(data)
        var pairs: [(Int, Int)] = []
        for _ in 0..<count {
            guard case .object(let n) = header.token(), case .object(let o) = header.token(), let number = n.int, let offset = o.int else { break }
            pairs.append((number, offset))
        }
        for (inner, offset) in pairs where objects[inner] == nil && first + offset < data.count {
            var lexer = PDFLexer(data, at: first + offset)
            if case .object(let o) = lexer.token() { objects[inner] = o }
        }
    }

    /// An object, following references (a few hops).
    func resolve(_ object: PDFObject?) -> PDFObject? {
        var current = object
        for _ in 0..<8 {
            guard let reference = current?.reference else { return current }
            current = objects[reference]
        }
        return nil
    }

    func resolve(_ object: PDFObject?, _ key: String) -> PDFObject? { resolve(resolve(object)?[key]) }

    /// A stream's bytes with its filters undone (Flate, ASCIIHex, ASCII85; others give nil).
    func decode(_ object: PDFObject) throws(ArticleError) -> [UInt8]? {
        guard case .stream(let d, var data) = object else { return nil }
        let filters: [String]
        switch resolve(d["Filter"]) {
        case .name(let name)?: filters = [name]
        case .array(let list)?: filters = list.compactMap { resolve($0)?.name }
        default: filters = []
        }
        for filter in filters {
            switch filter {
            case "FlateDecode", "Fl": data = try Inflate.zlib(data, limit: Self.streamLimit)
            case "ASCIIHexDecode", "AHx":
                var lexer = PDFLexer([0x3C] + data + [0x3E])
                data = lexer.hexString()
            case "ASCII85Decode", "A85": data = Self.ascii85(data)
            default: return nil
            }
        }
        return data
    }

    static func ascii85(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var group: [UInt32] = []
        for b in data {
            if b == 0x7E { break }  // "~>"
            if b == 0x7A, group.isEmpty {
                out += [0, 0, 0, 0]
                continue
            }
            guard (0x21...0x75).contains(b) else { continue }
            group.append(UInt32(b - 0x21))
            if group.count == 5 {
                let value = group.reduce(UInt32(0)) { $0 &* 85 &+ $1 }
                out += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
                group = []
            }
        }
        if group.count > 1 {
            let n = group.count
            while group.count < 5 { group.append(84) }
            let value = group.reduce(UInt32(0)) { $0 &* 85 &+ $1 }
            out += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)].prefix(n - 1)
        }
        return out
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        ByteSearch.index(of: needle, in: haystack, from: from)
    }

    /// "12 0" right before `index` (the object number and generation of "obj").
    static func numbersBefore(_ bytes: [UInt8], _ index: Int) -> (Int, Int)? {
        var i = index
        func number() -> Int? {
            while i > 0, PDFLexer.isWhite(bytes[i - 1]) { i -= 1 }
            let end = i
            while i > 0, (0x30...0x39).contains(bytes[i - 1]) { i -= 1 }
            guard i < end, end - i <= 10 else { return nil }
            return Int(String(decoding: bytes[i..<end], as: UTF8.self))
        }
        // `index` points at the space before "obj": the generation is just before it.
        i += 1
        guard let generation = number(), let object = number() else { return nil }
        return (object, generation)
    }
}
