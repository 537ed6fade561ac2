/// How a font's character codes become text: its ToUnicode map when it has one (bfchar and
/// bfrange, codes of one or two bytes), else its encoding (WinAnsi, MacRoman or Standard, with
/// Differences by glyph name). Composite fonts without a ToUnicode map give nothing (their
/// codes are glyph ids, not characters).
struct PDFFont {
    var twoByte = false
    var map: [UInt32: String] = [:]
    var simple: [String]?

    init(_ font: PDFObject?, document: PDFDocument) {
        let font = document.resolve(font)
        let subtype = font?["Subtype"]?.name
        twoByte = subtype == "Type0"
        if let cmap = document.resolve(font?["ToUnicode"]), let data = try? document.decode(cmap) {
            map = Self.toUnicode(data)
            if map.keys.contains(where: { $0 > 0xFF }) { twoByte = true }
        }
        guard !twoByte else { return }
        var table = PDFEncodings.winAnsi
        switch document.resolve(font?["Encoding"]) {
        case .name("MacRomanEncoding")?: table = PDFEncodings.macRoman
        case .name("StandardEncoding")?: table = PDFEncodings.winAnsi
        case .dictionary(let d)?:
            if d["BaseEncoding"]?.name == "MacRomanEncoding" { table = PDFEncodings.macRoman }
            var code = 0
            for item in document.resolve(d["Differences"])?.array ?? [] {
                if let n = item.int {
                    code = n
                } else if let glyph = item.name, (0..<256).contains(code) {
                    table[code] = PDFEncodings.glyph(glyph) ?? table[code]
                    code += 1
                }
            }
        default: break
        }
        simple = table
    }

    /// The text of a string shown in this font.
    func text(_ bytes: [UInt8]) -> String {
        var out = ""
        if twoByte {
            var i = 0
            while i + 1 < bytes.count {
                let code = UInt32(bytes[i]) << 8 | UInt32(bytes[i + 1])
                out += map[code] ?? ""
                i += 2
            }
            return out
        }
        for b in bytes {
            if let mapped = map[UInt32(b)] {
                out += mapped
            } else if let simple {
                out += simple[Int(b)]
            }
        }
        return out
    }

    /// A ToUnicode CMap's bfchar and bfrange entries.
    static func toUnicode(_ data: [UInt8]) -> [UInt32: String] {
        var out: [UInt32: String] = [:]
        var lexer = PDFLexer(data)
        var operands: [PDFObject] = []
        var mode = ""
        func code(_ o: PDFObject) -> UInt32? {
            guard let s = o.string, !s.isEmpty, s.count <= 4 else { return nil }
            return s.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        func unicode(_ s: [UInt8]) -> String {
            var units: [UInt16] = []
            var i = 0
            while i + 1 < s.count {
                units.append(UInt16(s[i]) << 8 | UInt16(s[i + 1]))
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        while out.count < 200_000 {
            switch lexer.token() {
            case .end: return out
            case .object(let o): operands.append(o)
            case .keyword(let word):
                switch word {
                case "beginbfchar", "beginbfrange": mode = word
                case "endbfchar":
                    var i = 0
                    while i + 1 < operands.count {
                        if let c = code(operands[i]), let s = operands[i + 1].string { out[c] = unicode(s) }
                        i += 2
                    }
                case "endbfrange":
                    var i = 0
                    while i + 2 < operands.count {
                        if let low = code(operands[i]), let high = code(operands[i + 1]), high >= low, high - low < 65_536 {
                            if let s = operands[i + 2].string, let first = unicode(s).unicodeScalars.last {
                                let prefix = String(unicode(s).unicodeScalars.dropLast())
                                for (k, c) in (low...high).enumerated() {
                                    if let scalar = UnicodeScalar(first.value + UInt32(k)) { out[c] = prefix + String(scalar) }
                                }
                            } else if let list = operands[i + 2].array {
                                for (k, c) in (low...high).enumerated() where k < list.count {
                                    if let s = list[k].string { out[c] = unicode(s) }
                                }
                            }
                        }
                        i += 3
                    }
                default: break
                }
                if word.hasPrefix("end") || word.hasPrefix("begin") { operands = [] }
                _ = mode
            case .arrayEnd, .dictionaryEnd: continue
            }
        }
        return out
    }
}
