/// How a font's character codes become text: its ToUnicode map when it has one (bfchar and
/// bfrange, codes of one or two bytes), else its encoding (WinAnsi, MacRoman or Standard, with
/// Differences by glyph name). Composite fonts without a ToUnicode map give nothing (their
/// codes are glyph ids, not characters).
struct PDFFont {
    var twoByte = false
    var map: [UInt32: String] = [:]
    var simple: [String]?
    /// Glyph widths by code (thousandths of the font size), and the width of a code not listed:
    /// where a shown string ends, so a move past its end is a space between words and a move
    /// to its end (a glyph at a time) is none.
    var widths: [UInt32: Double] = [:]
    var defaultWidth = 500.0

    /// The font `object` names, read once per document (a font shared by every page is one
    /// font, and its map's entries are charged once).
    static func load(_ object: PDFObject?, document: PDFDocument) throws(ArticleError) -> PDFFont {
        guard let number = object?.reference else { return try PDFFont(object, document: document) }
        if let kept = document.spending.fonts[number] { return kept }
        let font = try PDFFont(object, document: document)
        document.spending.fonts[number] = font
        return font
    }

    init(_ font: PDFObject?, document: PDFDocument) throws(ArticleError) {
        let font = document.resolve(font)
        let subtype = font?["Subtype"]?.name
        twoByte = subtype == "Type0"
        var data: [UInt8]?
        do throws(ArticleError) {
            data = try document.stream(font?["ToUnicode"])
        } catch {
            // A damaged map reads as no map; a budget passed is the document's answer.
            if case .tooBig = error { throw error }
        }
        if let data {
            map = try Self.toUnicode(data)
            document.spending.mapEntries += map.count
            guard document.spending.mapEntries <= PDFBudget.mapEntriesPerDocument else {
                throw .tooBig("its fonts' ToUnicode maps have more than \(PDFBudget.mapEntriesPerDocument) entries")
            }
            if map.keys.contains(where: { $0 > 0xFF }) { twoByte = true }
        }
        readWidths(font, document: document)
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

    /// Widths of a simple font (FirstChar and Widths) or of a composite one's descendant (W
    /// and DW), at most 65,536 of them.
    private mutating func readWidths(_ font: PDFObject?, document: PDFDocument) {
        if let first = document.resolve(font?["FirstChar"])?.int, let list = document.resolve(font?["Widths"])?.array, first >= 0 {
            for (index, width) in list.prefix(65_536).enumerated() {
                if let w = document.resolve(width)?.number, w > 0 { widths[UInt32(first + index)] = w }
            }
            return
        }
        guard let descendant = document.resolve(document.resolve(font?["DescendantFonts"])?.array?.first) else { return }
        defaultWidth = document.resolve(descendant["DW"])?.number ?? 1000
        let list = document.resolve(descendant["W"])?.array ?? []
        var i = 0
        while i + 1 < list.count, widths.count < 65_536 {
            guard let start = list[i].int, start >= 0, start < 65_536 else { break }
            if let run = document.resolve(list[i + 1])?.array {
                for (k, width) in run.prefix(65_536).enumerated() { if let w = width.number { widths[UInt32(start + k)] = w } }
                i += 2
            } else if i + 2 < list.count, let end = list[i + 1].int, let w = list[i + 2].number, end >= start {
                for code in start...min(end, start + 65_535) { widths[UInt32(code)] = w }
                i += 3
            } else {
                break
            }
        }
    }

    /// How far a string shown in this font moves the pen, in thousandths of the font size.
    func advance(_ bytes: [UInt8]) -> Double {
        var total = 0.0
        if twoByte {
            var i = 0
            while i + 1 < bytes.count {
                total += widths[UInt32(bytes[i]) << 8 | UInt32(bytes[i + 1])] ?? defaultWidth
                i += 2
            }
        } else {
            for b in bytes { total += widths[UInt32(b)] ?? defaultWidth }
        }
        return total
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
    /// `PDFBudget.mapEntries` is held inside each range's expansion, not between tokens: one
    /// `bfrange` line can stand for 65,536 entries. It counts entries written, not kept: 194
    /// ranges over the same 65,536 codes keep 65,536 and cost 12.7 million.
    static func toUnicode(_ data: [UInt8]) throws(ArticleError) -> [UInt32: String] {
        var out: [UInt32: String] = [:]
        var written = 0
        let tooMany = ArticleError.tooBig("a font's ToUnicode map has more than \(PDFBudget.mapEntries) entries")
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
        while true {
            guard written <= PDFBudget.mapEntries else { throw tooMany }
            switch lexer.token() {
            case .end: return out
            case .object(let o):
                // A map's entries come 100 to a block; a run of operands longer than any
                // block is not a map's and is not kept.
                guard operands.count < 3 * 10_000 else { continue }
                operands.append(o)
            case .keyword(let word):
                switch word {
                case "beginbfchar", "beginbfrange": mode = word
                case "endbfchar":
                    var i = 0
                    while i + 1 < operands.count {
                        if let c = code(operands[i]), let s = operands[i + 1].string {
                            out[c] = unicode(s)
                            written += 1
                        }
                        i += 2
                    }
                case "endbfrange":
                    var i = 0
                    while i + 2 < operands.count {
                        if let low = code(operands[i]), let high = code(operands[i + 1]), high >= low, high - low < 65_536 {
                            if let s = operands[i + 2].string, let first = unicode(s).unicodeScalars.last {
                                let prefix = String(unicode(s).unicodeScalars.dropLast())
                                for (k, c) in (low...high).enumerated() {
                                    written += 1
                                    guard written <= PDFBudget.mapEntries else { throw tooMany }
                                    if let scalar = UnicodeScalar(first.value + UInt32(k)) { out[c] = prefix + String(scalar) }
                                }
                            } else if let list = operands[i + 2].array {
                                for (k, c) in (low...high).enumerated() where k < list.count {
                                    written += 1
                                    guard written <= PDFBudget.mapEntries else { throw tooMany }
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
    }
}
