/// A PDF's text layer as an article (ISO 32000-1, 9.4 and 12.3.3): each page's text shown by
/// its content streams (Tj, TJ, ', "), lines told apart by the text position's moves, words by
/// the gaps in TJ, decoded by each font's ToUnicode map or encoding; paragraphs where a line
/// ends short or a gap opens; chapters from the outline (bookmarks) when it has them, else a
/// chapter per page. Title and author from the document's Info. A PDF with no text layer (a
/// scan) has no text to read: that is said, not guessed.
public enum PDFReader {
    /// The article in a PDF, read by Juke's own reader alone.
    public static func read(_ bytes: [UInt8]) throws(ArticleError) -> Article { try read(bytes, text: nil) }

    /// The article in a PDF named `name` (its file's name, or an address's last part), with
    /// `text` another reader's reading of its pages (poppler's pdftotext, each page ended by a
    /// form feed) when there is one: `parse` then `article`.
    public static func read(_ bytes: [UInt8], text: String?, name: String? = nil) throws(ArticleError) -> Article {
        try article(from: parse(bytes), text: text, name: name)
    }

    /// Refuses a PDF past one of `PDFBudget`'s budgets, as `read` would: a server calls it
    /// before it spends a minute of CPU and a gigabyte on pdftotext (which inflates a stream
    /// listed 30 times 30 times), then gives pdftotext's text to `read`.
    public static func checkBudgets(_ bytes: [UInt8]) throws(ArticleError) { _ = try parse(bytes) }

    /// Juke's own reading of a PDF, within `PDFBudget`: a file past a budget is refused here.
    /// A file Juke's own reader cannot read is not refused yet: another reader's text may
    /// still read it (`article(from:text:name:)` says why not).
    static func parse(_ bytes: [UInt8]) throws(ArticleError) -> PDFReading {
        guard bytes.count <= PDFBudget.inputBytes else { throw .tooBig("the file is larger than \(PDFBudget.inputBytes / 1024 / 1024) MB") }
        var reading = PDFReading()
        do throws(ArticleError) {
            let read = try PDFDocument(bytes)
            reading.document = read
            reading.tree = try Self.pages(of: read)
            let content = PDFContent(document: read)
            for page in reading.tree { reading.texts.append(TextLayout.paragraphs(try content.lines(of: page.object))) }
        } catch .tooBig(let what) {
            throw .tooBig(what)
        } catch {
            reading.failure = error
        }
        return reading
    }

    /// The article of a parsed PDF. With `text` (pdftotext's, when the system has it), its
    /// reading of the pages is the text and Juke's own reading keeps what it lacks: the
    /// outline as chapters, the title and the author; without it, or when it reads nothing,
    /// Juke's own reader's text is the article. A PDF whose Info gives no title is called by
    /// `name`, cleaned (`Article.title(fromFileName:)`), rather than by its first words.
    static func article(from reading: PDFReading, text: String?, name: String? = nil) throws(ArticleError) -> Article {
        let tree = reading.tree
        if let text {
            let pages = PDFTextOutput.pages(text)
            if pages.contains(where: { !$0.isEmpty }) {
                return try article(pages, document: reading.document, tree: tree.count == pages.count ? tree : nil, name: name)
            }
        }
        guard let document = reading.document else { throw reading.failure }
        guard !tree.isEmpty else { throw .unreadable("a damaged PDF (no pages)") }
        guard reading.texts.contains(where: { !$0.isEmpty }) else {
            // Juke's own reader does not decrypt: an encrypted file is said to be one, not a scan.
            if document.trailer["Encrypt"] != nil {
                throw .unreadable(
                    "This PDF is encrypted: Juke's own reader cannot read its text (poppler's pdftotext, where installed, reads one that opens without a password)."
                )
            }
            throw .unreadable("This PDF has no text layer (a scanned document): there is no text to read aloud.")
        }
        return try article(reading.texts, document: document, tree: tree, name: name)
    }

    static func pages(of document: PDFDocument) throws(ArticleError) -> [(number: Int?, object: PDFObject)] {
        let catalog = document.resolve(document.trailer["Root"])
        return try Self.pages(document.resolve(catalog?["Pages"]), document: document)
    }

    /// Pages of paragraphs as an article: chapters by the outline when the document has one
    /// (and `tree` gives its pages), else a chapter per page; title and author from Info, else
    /// the title from the file's `name`, else from the first words.
    static func article(_ texts: [[String]], document: PDFDocument?, tree: [(number: Int?, object: PDFObject)]?, name: String? = nil)
        throws(ArticleError) -> Article
    {
        let info = document.flatMap { $0.resolve($0.trailer["Info"]) }
        func field(_ key: String) -> String? {
            guard let document, let value = info.flatMap({ document.resolve($0[key])?.string }) else { return nil }
            let text = Self.textString(value)
            return text.isEmpty ? nil : text
        }
        let title = field("Title") ?? name.flatMap(Article.title(fromFileName:))
        let author = field("Author")
        var chapters: [Article.Chapter] = []
        var marks: [(title: String, page: Int)] = []
        if let document, let tree { marks = Self.outline(document.resolve(document.trailer["Root"]), pages: tree, document: document) }
        if marks.count >= 2 || (marks.count == 1 && marks[0].page > 0) {
            var bounds = marks
            if bounds[0].page > 0 { bounds.insert((title ?? "Beginning", 0), at: 0) }
            for (index, mark) in bounds.enumerated() {
                let end = min(index + 1 < bounds.count ? bounds[index + 1].page : texts.count, texts.count)
                let paragraphs = Array(texts[min(mark.page, end)..<end].joined())
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
    static func pages(_ root: PDFObject?, document: PDFDocument) throws(ArticleError) -> [(number: Int?, object: PDFObject)] {
        var out: [(number: Int?, object: PDFObject)] = []
        var seen = Set<Int>()
        // Depth first from a stack (the tree's depth is the file's to choose), each node once.
        var stack: [(node: PDFObject?, number: Int?, depth: Int)] = [(root, nil, 0)]
        var visited = 0
        while let item = stack.popLast() {
            visited += 1
            guard visited <= PDFBudget.objects else { throw .tooBig("its page tree has more than \(PDFBudget.objects) nodes") }
            guard item.depth < 64, let node = item.node else { continue }
            let (number, depth) = (item.number, item.depth)
            if let kids = document.resolve(node["Kids"])?.array {
                for kid in kids.reversed() {
                    if let r = kid.reference {
                        guard seen.insert(r).inserted else { continue }
                    }
                    stack.append((document.resolve(kid), kid.reference, depth + 1))
                }
            } else if node["Type"]?.name == "Page" || node["Contents"] != nil {
                out.append((number, node))
                guard out.count <= PDFBudget.pages else { throw .tooBig("it has more than \(PDFBudget.pages) pages") }
            }
        }
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
