/// A PDF file's objects, found by reading the file itself rather than trusting its cross-
/// reference table (damaged and hand-edited files get that wrong): every `n g obj … endobj`,
/// and the objects packed in object streams (PDF 1.5). The catalog comes from the trailer (or
/// the cross-reference stream), else from the object that says it is one.
struct PDFDocument {
    private(set) var objects: [Int: PDFObject] = [:]
    private(set) var trailer: [String: PDFObject] = [:]
    /// What reading this document has spent (shared with the readers of its pages and fonts).
    let spending = PDFSpending()
    /// Objects read so far, a repeated number counted again (`PDFBudget.objects`).
    private var read = 0

    init(_ bytes: [UInt8]) throws(ArticleError) {
        guard bytes.count >= 8, Self.find(Array("%PDF-".utf8), in: Array(bytes.prefix(1024)), from: 0) != nil else {
            throw .unreadable("not a PDF (no %PDF- header)")
        }
        guard bytes.count <= PDFBudget.inputBytes else { throw .tooBig("the file is larger than \(PDFBudget.inputBytes / 1024 / 1024) MB") }
        var packed: [Int] = []
        var i = 0
        let obj = Array(" obj".utf8)
        let endstream = Array("endstream".utf8)
        while let found = Self.find(obj, in: bytes, from: i) {
            i = found + obj.count
            // Walk back over "g" and "n".
            guard let (number, _) = Self.numbersBefore(bytes, found) else { continue }
            var lexer = PDFLexer(bytes, at: found + obj.count)
            lexer.tokenLimit = PDFBudget.tokensPerObject
            guard case .object(var object) = lexer.token() else { continue }
            // The scan goes on after the object just read, never inside it again: a file of
            // objects that open and never close (`1 0 obj [` 20,000 times) stays linear.
            i = max(i, lexer.at)
            // A stream follows its dictionary.
            var after = lexer
            if case .keyword("stream") = after.token(), case .dictionary(let d) = object {
                var start = after.at
                if start < bytes.count, bytes[start] == 0x0D { start += 1 }
                if start < bytes.count, bytes[start] == 0x0A { start += 1 }
                let next = Self.find(endstream, in: bytes, from: start)
                var end = next ?? bytes.count
                // Its Length when "endstream" follows it closely (binary data may hold the word).
                if let length = d["Length"]?.int, length >= 0, start + length <= bytes.count, let close = Self.find(endstream, in: bytes, from: start + length),
                    close - (start + length) < 16
                {
                    end = start + length
                }
                object = .stream(d, Array(bytes[start..<end]))
                i = max(i, end)
            }
            try keep(number, object)
            if object["Type"]?.name == "ObjStm" { packed.append(number) }
            if object["Type"]?.name == "XRef", let root = object["Root"] {
                trailer["Root"] = root
                trailer["Info"] = object["Info"] ?? trailer["Info"]
                trailer["Encrypt"] = object["Encrypt"] ?? trailer["Encrypt"]
            }
        }
        for number in packed { try unpack(number) }
        // The classic trailer(s): the last one wins.
        var t = 0
        let word = Array("trailer".utf8)
        while let found = Self.find(word, in: bytes, from: t) {
            t = found + word.count
            var lexer = PDFLexer(bytes, at: t)
            lexer.tokenLimit = PDFBudget.tokensPerObject
            if case .object(.dictionary(let d)) = lexer.token() {
                for (key, value) in d where key == "Root" || key == "Info" || key == "Encrypt" { trailer[key] = value }
            }
            t = max(t, lexer.at)
        }
        if trailer["Root"] == nil, let catalog = objects.first(where: { $0.value["Type"]?.name == "Catalog" })?.key {
            trailer["Root"] = .reference(catalog)
        }
        guard trailer["Root"] != nil else { throw .unreadable("a damaged PDF (no catalog)") }
    }

    private mutating func keep(_ number: Int, _ object: PDFObject) throws(ArticleError) {
        read += 1
        guard read <= PDFBudget.objects else { throw .tooBig("it has more than \(PDFBudget.objects) objects") }
        objects[number] = object
    }

    /// The objects packed in an object stream, each read from its own span (offsets in
    /// order), so overlapping offsets cannot make one long object be read again and again.
    mutating func unpack(_ number: Int) throws(ArticleError) {
        guard case .stream(let d, _)? = objects[number], let count = d["N"]?.int, let first = d["First"]?.int, count >= 0, first >= 0 else { return }
        let data: [UInt8]
        do throws(ArticleError) {
            guard let decoded = try stream(.reference(number)) else { return }
            data = decoded
        } catch {
            // A damaged object stream: its objects are missing and the rest is read; a budget
            // passed is the document's answer.
            if case .tooBig = error { throw error }
            return
        }
        guard first <= data.count else { return }
        var header = PDFLexer(data)
        header.tokenLimit = 2 * min(count, PDFBudget.objects) + 2
        var pairs: [(number: Int, offset: Int)] = []
        while pairs.count < count {
            guard case .object(let n) = header.token(), case .object(let o) = header.token(), let number = n.int, let offset = o.int else { break }
            guard offset >= 0, first + offset < data.count, offset >= (pairs.last?.offset ?? 0) else { break }
            pairs.append((number, offset))
        }
        for (index, pair) in pairs.enumerated() where objects[pair.number] == nil {
            let end = index + 1 < pairs.count ? first + pairs[index + 1].offset : data.count
            var lexer = PDFLexer(Array(data[(first + pair.offset)..<end]))
            lexer.tokenLimit = PDFBudget.tokensPerObject
            if case .object(let o) = lexer.token() { try keep(pair.number, o) }
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

    /// A stream's bytes with its filters undone (Flate, ASCIIHex, ASCII85; others give nil),
    /// `object` being the stream or a reference to it. Each stream object is decoded once and
    /// kept; all of them together stay within `PDFBudget.decodedBytes`.
    func stream(_ object: PDFObject?) throws(ArticleError) -> [UInt8]? {
        var current = object
        var number: Int?
        for _ in 0..<8 {
            guard let reference = current?.reference else { break }
            number = reference
            current = objects[reference]
        }
        if let number, let kept = spending.streams[number] { return kept }
        guard let current, let data = try decode(current) else { return nil }
        if let number { spending.streams[number] = data }
        return data
    }

    /// Undoes a stream's filters, charging what it decodes to the document.
    private func decode(_ object: PDFObject) throws(ArticleError) -> [UInt8]? {
        guard case .stream(let d, var data) = object else { return nil }
        let filters: [String]
        switch resolve(d["Filter"]) {
        case .name(let name)?: filters = [name]
        case .array(let list)?: filters = list.compactMap { resolve($0)?.name }
        default: filters = []
        }
        for filter in filters.prefix(8) {
            switch filter {
            case "FlateDecode", "Fl":
                let left = PDFBudget.decodedBytes - spending.decodedBytes
                do throws(ArticleError) {
                    data = try Inflate.zlib(data, limit: min(PDFBudget.streamBytes, max(0, left)))
                } catch {
                    // Inflate's limit passed (said as tooBig, or in older words): here it is one of
                    // the document's budgets, named as such.
                    switch error {
                    case .tooBig: break
                    case .unreadable(let why) where why.hasPrefix("a compressed part is larger"): break
                    default: throw error
                    }
                    throw left < PDFBudget.streamBytes
                        ? .tooBig("its streams decompress to more than \(PDFBudget.decodedBytes / 1024 / 1024) MB")
                        : .tooBig("a stream decompresses to more than \(PDFBudget.streamBytes / 1024 / 1024) MB")
                }
            case "ASCIIHexDecode", "AHx":
                var lexer = PDFLexer([0x3C] + data + [0x3E])
                data = lexer.hexString()
            case "ASCII85Decode", "A85": data = Self.ascii85(data)
            default: return nil
            }
        }
        spending.decodedBytes += data.count
        guard spending.decodedBytes <= PDFBudget.decodedBytes else {
            throw .tooBig("its streams decompress to more than \(PDFBudget.decodedBytes / 1024 / 1024) MB")
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
