/// A page's content streams read for their text (ISO 32000-1, 9.4): the strings shown (Tj, TJ,
/// ', "), lines told apart by the text position's moves, words by the gaps in TJ; forms drawn
/// with `Do` read in place, and inline images (`BI … ID … EI`) stepped over as the bytes they
/// are. Forms are taken from a stack, never by recursion, at most `PDFBudget.formDepth` deep;
/// every byte read is charged to the page budget, a form drawn twice twice, and the tokens of a
/// page are bounded by `PDFBudget.tokensPerPage`.
struct PDFContent {
    let document: PDFDocument

    /// One content stream being read, with the resources its names refer to.
    private struct Frame {
        var lexer: PDFLexer
        var fonts: [String: PDFObject]
        var forms: [String: PDFObject]
        var depth: Int
    }

    /// The lines of a page, each with where it starts and its font size.
    func lines(of page: PDFObject) throws(ArticleError) -> [TextLayout.Line] {
        var content: [UInt8] = []
        let parts: [PDFObject]
        switch document.resolve(page["Contents"]) {
        case .array(let list)?: parts = list
        case nil: return []
        default: parts = [page["Contents"] ?? .null]
        }
        for part in parts.prefix(10_000) {
            guard let data = try readable(part) else { continue }
            try document.spending.charge(page: data.count + 1)
            content += data
            content.append(0x0A)
        }
        var resources = document.resolve(page["Resources"])
        var parent = document.resolve(page["Parent"])
        var hops = 0
        while resources == nil, let p = parent, hops < 32 {
            resources = document.resolve(p["Resources"])
            parent = document.resolve(p["Parent"])
            hops += 1
        }
        return try lines(content, resources: resources)
    }

    /// A stream's bytes, or nil when it is damaged (the rest of the page is still read); a
    /// budget passed is the document's answer.
    private func readable(_ object: PDFObject) throws(ArticleError) -> [UInt8]? {
        do throws(ArticleError) {
            return try document.stream(object)
        } catch {
            if case .tooBig = error { throw error }
            return nil
        }
    }

    private func frame(_ bytes: [UInt8], resources: PDFObject?, depth: Int) -> Frame {
        let fonts = document.resolve(resources?["Font"])?.dictionary ?? [:]
        let forms = document.resolve(resources?["XObject"])?.dictionary ?? [:]
        return Frame(lexer: PDFLexer(bytes), fonts: fonts, forms: forms, depth: depth)
    }

    func lines(_ content: [UInt8], resources: PDFObject?) throws(ArticleError) -> [TextLayout.Line] {
        var stack = [frame(content, resources: resources, depth: 0)]
        var operands: [PDFObject] = []
        var font: PDFFont?
        var size = 12.0
        var leading = 0.0
        var x = 0.0
        var y = 0.0
        var lineX = 0.0
        var lineY = 0.0
        var out: [TextLayout.Line] = []
        var current = ""
        var tokens = 0
        func newLine() {
            let text = PDFBidi.logical(Whitespace.collapse(current))
            if !text.isEmpty { out.append(TextLayout.Line(text: text, x: lineX, y: lineY, size: size)) }
            current = ""
            lineX = x
            lineY = y
        }
        // How far the strings shown since the last move took the pen (x is where it moved to).
        var advanced = 0.0
        func moveTo(_ nx: Double, _ ny: Double) {
            if abs(ny - y) > size * 0.3 {
                x = nx
                y = ny
                newLine()
            } else {
                // The same line further on: a space if there is a gap after what was shown.
                if nx - (x + advanced) > size * 0.15, !current.hasSuffix(" ") { current += " " }
                x = nx
                y = ny
            }
            advanced = 0
        }
        func show(_ bytes: [UInt8]) throws(ArticleError) {
            advanced += (font?.advance(bytes) ?? 0) * size / 1000
            let text = font?.text(bytes) ?? ""
            try document.spending.charge(text: text.count)
            current += text
        }
        while var top = stack.popLast() {
            let before = top.lexer.tokens
            let token = top.lexer.token()
            tokens += top.lexer.tokens - before
            guard tokens <= PDFBudget.tokensPerPage else {
                throw .tooBig("a page has more than \(PDFBudget.tokensPerPage / 1_000_000) million drawing instructions")
            }
            switch token {
            case .end:
                operands.removeAll()
                continue  // this stream is done: back to the one that drew it
            case .object(let o):
                // No operator takes more than six operands; a long run of them is not kept.
                if operands.count >= 64 { operands.removeFirst(operands.count - 8) }
                operands.append(o)
            case .keyword(let op):
                switch op {
                case "BT":
                    x = 0
                    y = 0
                    advanced = 0
                case "Tf":
                    if operands.count >= 2, let name = operands[operands.count - 2].name, let object = top.fonts[name] {
                        font = try PDFFont.load(object, document: document)
                    }
                    if let s = operands.last?.number, s.isFinite, s != 0 { size = abs(s) }
                case "TL": leading = operands.last?.number ?? leading
                case "Td", "TD":
                    if operands.count >= 2, let tx = operands[operands.count - 2].number, let ty = operands[operands.count - 1].number {
                        if op == "TD" { leading = -ty }
                        moveTo(x + tx, y + ty)
                    }
                case "Tm":
                    if operands.count >= 6, let e = operands[operands.count - 2].number, let f = operands[operands.count - 1].number,
                        let d = operands[operands.count - 3].number
                    {
                        if abs(d) > 0.01 { size = max(1, abs(d)) }
                        moveTo(e, f)
                    }
                case "T*": moveTo(x, y - (leading == 0 ? size * 1.2 : leading))
                case "Tj": if let s = operands.last?.string { try show(s) }
                case "'", "\"":
                    moveTo(x, y - (leading == 0 ? size * 1.2 : leading))
                    if let s = operands.last?.string { try show(s) }
                case "TJ":
                    for item in operands.last?.array ?? [] {
                        if let s = item.string {
                            try show(s)
                        } else if let gap = item.number {
                            advanced -= gap * size / 1000
                            if gap < -180, !current.hasSuffix(" ") { current += " " }
                        }
                    }
                case "ID":
                    // An inline image's data: bytes, not tokens, up to "EI" standing alone.
                    top.lexer.at = Self.inlineImageEnd(top.lexer.bytes, from: top.lexer.at)
                case "Do":
                    if let name = operands.last?.name, top.depth < PDFBudget.formDepth, let reference = top.forms[name],
                        let form = document.resolve(reference), form["Subtype"]?.name == "Form", let data = try readable(reference)
                    {
                        try document.spending.charge(page: data.count)
                        let inner = frame(data, resources: document.resolve(form["Resources"]), depth: top.depth + 1)
                        // Its own fonts, else the page's (old writers leave them out).
                        let drawn = Frame(
                            lexer: inner.lexer, fonts: inner.fonts.isEmpty ? top.fonts : inner.fonts, forms: inner.forms, depth: inner.depth)
                        operands.removeAll(keepingCapacity: true)
                        stack.append(top)
                        stack.append(drawn)
                        continue
                    }
                default: break
                }
                operands.removeAll(keepingCapacity: true)
            case .arrayEnd, .dictionaryEnd: break
            }
            stack.append(top)
        }
        newLine()
        return out
    }

    /// Where an inline image's data ends: after the first "EI" with white space before it
    /// and white space, a delimiter or the end after it (the data's own bytes may hold "EI").
    static func inlineImageEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start + 1
        while i + 1 < bytes.count {
            if bytes[i] == 0x45, bytes[i + 1] == 0x49, PDFLexer.isWhite(bytes[i - 1]),
                i + 2 == bytes.count || PDFLexer.isWhite(bytes[i + 2]) || PDFLexer.isDelimiter(bytes[i + 2])
            {
                return i + 2
            }
            i += 1
        }
        return bytes.count
    }
}
