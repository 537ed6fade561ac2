/// A PDF's text layer as an article (ISO 32000-1, 9.4 and 12.3.3): each page's text shown by
/// its content streams (Tj, TJ, ', "), lines told apart by the text position's moves, words by
/// the gaps in TJ, decoded by each font's ToUnicode map or encoding; paragraphs where a line
/// ends short or a gap opens; chapters from the outline (bookmarks) when it has them, else a
/// chapter per page. Title and author from the document's Info. A PDF with no text layer (a
/// scan) has no text to read: that is said, not guessed.
public enum PDFReader {
    public static func read(_ bytes: [UInt8]) throws(ArticleError) -> Article {
        let document = try PDFDocument(bytes)
        let catalog = document.resolve(document.trailer["Root"])
        let tree = Self.pages(document.resolve(catalog?["Pages"]), document: document)
        let pages = tree.map(\.object)
        guard !pages.isEmpty else { throw .unreadable("a damaged PDF (no pages)") }
        var texts: [[String]] = []
        for page in pages { texts.append(try Self.paragraphs(of: page, document: document)) }
        guard texts.contains(where: { !$0.isEmpty }) else {
            throw .unreadable("This PDF has no text layer (a scanned document): there is no text to read aloud.")
        }
        let info = document.resolve(document.trailer["Info"])
        let title = info.flatMap { document.resolve($0["Title"])?.string }.map(Self.textString).flatMap { $0.isEmpty ? nil : $0 }
        let author = info.flatMap { document.resolve($0["Author"])?.string }.map(Self.textString).flatMap { $0.isEmpty ? nil : $0 }
        var chapters: [Article.Chapter] = []
        let marks = Self.outline(catalog, pages: tree, document: document)
        if marks.count >= 2 || (marks.count == 1 && marks[0].page > 0) {
            var bounds = marks
            if bounds[0].page > 0 { bounds.insert((title ?? "Beginning", 0), at: 0) }
            for (index, mark) in bounds.enumerated() {
                let end = index + 1 < bounds.count ? bounds[index + 1].page : pages.count
                let paragraphs = Array(texts[mark.page..<max(mark.page, end)].joined())
                if !paragraphs.isEmpty { chapters.append(Article.Chapter(title: mark.title, paragraphs: paragraphs)) }
            }
        } else {
            for (index, paragraphs) in texts.enumerated() where !paragraphs.isEmpty {
                chapters.append(Article.Chapter(title: "Page \(index + 1)", paragraphs: paragraphs))
            }
        }
        guard !chapters.isEmpty else { throw .noText }
        return Article(title: title ?? chapters[0].paragraphs.first.map { String($0.prefix(100)) } ?? "Untitled", author: author, chapters: chapters)
    }

    /// The page dictionaries in order, with their object numbers, from the page tree (bounded
    /// against loops).
    static func pages(_ root: PDFObject?, document: PDFDocument) -> [(number: Int?, object: PDFObject)] {
        var out: [(number: Int?, object: PDFObject)] = []
        var seen = Set<Int>()
        func walk(_ node: PDFObject?, number: Int?, depth: Int) {
            guard depth < 64, out.count < 10_000, let node else { return }
            if let kids = document.resolve(node["Kids"])?.array {
                for kid in kids {
                    if let r = kid.reference {
                        guard seen.insert(r).inserted else { continue }
                    }
                    walk(document.resolve(kid), number: kid.reference, depth: depth + 1)
                }
            } else if node["Type"]?.name == "Page" || node["Contents"] != nil {
                out.append((number, node))
            }
        }
        walk(root, number: nil, depth: 0)
        return out
    }

    /// The outline's top-level entries: titles and the page each starts on, in page order.
    static func outline(_ catalog: PDFObject?, pages: [(number: Int?, object: PDFObject)], document: PDFDocument) -> [(title: String, page: Int)] {
        var pageIndex: [Int: Int] = [:]
        for (index, page) in pages.enumerated() { if let number = page.number { pageIndex[number] = index } }
        var out: [(String, Int)] = []
        var item = document.resolve(document.resolve(catalog?["Outlines"])?["First"])
        var steps = 0
        while let entry = item, steps < 10_000 {
            steps += 1
            let title = document.resolve(entry["Title"])?.string.map(textString) ?? ""
            var destination = document.resolve(entry["Dest"])
            if destination == nil, let action = document.resolve(entry["A"]) { destination = document.resolve(action["D"]) }
            destination = named(destination, catalog: catalog, document: document)
            if let target = destination?.array?.first?.reference, let page = pageIndex[target], !title.isEmpty { out.append((title, page)) }
            item = document.resolve(entry["Next"])
        }
        return out.sorted { $0.1 < $1.1 }
    }

    /// A named destination (a name in the catalog's Dests, or a string in its Names tree) as
    /// the explicit one it stands for; an explicit one as it is.
    static func named(_ destination: PDFObject?, catalog: PDFObject?, document: PDFDocument) -> PDFObject? {
        func explicit(_ o: PDFObject?) -> PDFObject? {
            let o = document.resolve(o)
            return o?.array != nil ? o : document.resolve(o?["D"])
        }
        switch destination {
        case .name(let name)?: return explicit(document.resolve(catalog?["Dests"])?[name])
        case .string(let key)?:
            var stack: [PDFObject] = document.resolve(document.resolve(catalog?["Names"])?["Dests"]).map { [$0] } ?? []
            var steps = 0
            while let node = stack.popLast(), steps < 10_000 {
                steps += 1
                if let names = document.resolve(node["Names"])?.array {
                    var i = 0
                    while i + 1 < names.count {
                        if document.resolve(names[i])?.string == key { return explicit(names[i + 1]) }
                        i += 2
                    }
                }
                for kid in document.resolve(node["Kids"])?.array ?? [] { if let k = document.resolve(kid) { stack.append(k) } }
            }
            return nil
        default: return destination
        }
    }

    /// A page's text as paragraphs.
    static func paragraphs(of page: PDFObject, document: PDFDocument) throws(ArticleError) -> [String] {
        var content: [UInt8] = []
        switch document.resolve(page["Contents"]) {
        case .array(let parts)?:
            for part in parts { if let object = document.resolve(part), let data = try document.decode(object) { content += data + [0x0A] } }
        case let object?:
            if let data = try document.decode(object) { content = data }
        case nil: return []
        }
        var fonts: [String: PDFFont] = [:]
        var resources = document.resolve(page["Resources"])
        var parent = document.resolve(page["Parent"])
        var hops = 0
        while resources == nil, let p = parent, hops < 32 {
            resources = document.resolve(p["Resources"])
            parent = document.resolve(p["Parent"])
            hops += 1
        }
        for (name, font) in document.resolve(resources?["Font"])?.dictionary ?? [:] { fonts[name] = PDFFont(font, document: document) }
        return TextLayout.paragraphs(lines(content, fonts: fonts))
    }

    /// The lines a content stream shows, each with where it starts and its font size.
    static func lines(_ content: [UInt8], fonts: [String: PDFFont]) -> [TextLayout.Line] {
        var lexer = PDFLexer(content)
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
        func newLine() {
            let text = Whitespace.collapse(current)
            if !text.isEmpty { out.append(TextLayout.Line(text: text, x: lineX, y: lineY, size: size)) }
            current = ""
            lineX = x
            lineY = y
        }
        func moveTo(_ nx: Double, _ ny: Double) {
            if abs(ny - y) > size * 0.3 {
                x = nx
                y = ny
                newLine()
            } else {
                // The same line further on: a space if there is a gap.
                if nx - x > size * 0.2, !current.hasSuffix(" ") { current += " " }
                x = nx
                y = ny
            }
        }
        var steps = 0
        while steps < 5_000_000 {
            steps += 1
            switch lexer.token() {
            case .end:
                newLine()
                return out
            case .object(let o): operands.append(o)
            case .keyword(let op):
                switch op {
                case "BT":
                    x = 0
                    y = 0
                case "Tf":
                    if operands.count >= 2, let name = operands[operands.count - 2].name { font = fonts[name] }
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
                        if abs(d) > 0.01 { size = max(1, abs(d) * (size > 0 ? 1 : 1)) }
                        moveTo(e, f)
                    }
                case "T*": moveTo(x, y - (leading == 0 ? size * 1.2 : leading))
                case "Tj": if let s = operands.last?.string { current += font?.text(s) ?? "" }
                case "'", "\"":
                    moveTo(x, y - (leading == 0 ? size * 1.2 : leading))
                    if let s = operands.last?.string { current += font?.text(s) ?? "" }
                case "TJ":
                    for item in operands.last?.array ?? [] {
                        if let s = item.string {
                            current += font?.text(s) ?? ""
                        } else if let gap = item.number, gap < -180, !current.hasSuffix(" ") {
                            current += " "
                        }
                    }
                case "ET": break
                default: break
                }
                operands.removeAll(keepingCapacity: true)
            case .arrayEnd, .dictionaryEnd: continue
            }
        }
        newLine()
        return out
    }

    /// A text string (Info, outline titles): UTF-16BE with its mark, UTF-8 with its mark, else PDFDocEncoding (as Latin-1).
    static func textString(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xFE, 0xFF]) {
            var units: [UInt16] = []
            var i = 2
            while i + 1 < bytes.count {
                units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
                i += 2
            }
            return Whitespace.collapse(String(decoding: units, as: UTF16.self))
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Whitespace.collapse(String(decoding: bytes.dropFirst(3), as: UTF8.self)) }
        return Whitespace.collapse(String(bytes.map { Character(UnicodeScalar($0)) }))
    }
}

/// Lines into paragraphs: a new paragraph where the gap to the next line is larger than the
/// usual line spacing, or where a line ends well short of the usual width with a full stop;
/// a word hyphenated across lines is joined.
enum TextLayout {
    struct Line: Equatable {
        var text: String
        var x: Double
        var y: Double
        var size: Double
    }

    static func paragraphs(_ lines: [Line]) -> [String] {
        guard !lines.isEmpty else { return [] }
        let gaps = zip(lines, lines.dropFirst()).map { abs($0.y - $1.y) }.filter { $0 > 0 }.sorted()
        let usualGap = gaps.isEmpty ? 0 : gaps[gaps.count / 2]
        let lengths = lines.map { $0.text.count }.sorted()
        let usualLength = lengths[lengths.count * 3 / 4]
        var out: [String] = []
        var current = ""
        for (index, line) in lines.enumerated() {
            if current.hasSuffix("-"), let last = current.dropLast().last, last.isLetter {
                current = String(current.dropLast()) + line.text
            } else {
                current += current.isEmpty ? line.text : " " + line.text
            }
            let next = index + 1 < lines.count ? lines[index + 1] : nil
            let gap = next.map { abs(line.y - $0.y) } ?? 0
            let endsShort = line.text.count < usualLength * 7 / 10 && ".!?:\"”’".contains(line.text.last ?? " ")
            let sizeChanges = next.map { abs($0.size - line.size) > 0.5 } ?? false
            if next == nil || (usualGap > 0 && gap > usualGap * 1.4) || endsShort || sizeChanges {
                let text = Whitespace.collapse(current)
                if !text.isEmpty { out.append(text) }
                current = ""
            }
        }
        return out
    }
}
