/// The readable article in a web page: Readability.js's method (Firefox's reader view), on
/// Juke's own lenient HTML tree.
///
/// 1. A sweep in document order drops hidden elements, the byline, the heading that repeats
///    the title, elements whose class or id says they are comments, menus, footers, sidebars or
///    ads, and empty blocks; loose text in divs is wrapped in paragraphs (`PageSweep`).
/// 2. Each paragraph of 25 characters or more scores (1, its commas, its length) for its
///    ancestors, five levels up, less the higher; each candidate's score is cut by its share of
///    link text; the best is moved up the tree where its ancestors hold more of the article
///    (`CandidateScoring`).
/// 3. The best candidate, with its siblings that score well or read as prose, is the article;
///    within it, chrome is cleaned away (`ArticleCleaning`).
/// If that leaves less than 500 characters, it is tried again without the unlikely-candidate
/// rule, then without class weights, then without conditional cleaning (the longest is kept).
public enum ArticleExtractor {
    /// The article in a page's bytes.
    public static func extract(html bytes: [UInt8], httpCharset: String? = nil) throws(ArticleError) -> Article {
        let charset = isUTF8Text(bytes) ? "utf-8" : httpCharset
        let root = try HTMLTreeBuilder.build(bytes, httpCharset: charset)
        defer { root.dispose() }
        let metadata = PageMetadata.read(root)
        var best: [Block] = []
        var bestLength = 0
        var firstLength = 0
        let attempts = [(true, true, true), (false, true, true), (false, false, true), (false, false, false)]
        for (index, (strip, weigh, cleanConditionally)) in attempts.enumerated() {
            let page = index == 0 ? root : try HTMLTreeBuilder.build(bytes, httpCharset: charset)
            defer { if index > 0 { page.dispose() } }
            let body = page.elements(named: ["body"]).first ?? page
            var sweep = PageSweep(stripUnlikely: strip, title: metadata.title)
            let blocks = grab(body, sweep: &sweep, weighClasses: weigh, cleanConditionally: cleanConditionally)
            let length = blocks.reduce(0) { $0 + $1.text.unicodeScalars.count }
            // A looser attempt must at least double what the strict one found to be read
            // instead: on a short page, the rules it drops are what kept the menus and
            // comments out (Readability.js keeps the longest, and reads them).
            if index == 0 ? length > 0 : length > max(bestLength, 2 * firstLength) {
                best = blocks
                bestLength = length
            }
            if index == 0 { firstLength = length }
            if length >= 500 { break }
        }
        // No attempt found prose (a post made of lists, say): the page's own word for its
        // article (`<article>`, `itemprop=articleBody`, `<main>`), when it says more.
        if bestLength < 500 {
            let page = try HTMLTreeBuilder.build(bytes, httpCharset: charset)
            defer { page.dispose() }
            if let marked = markedArticle(page) {
                // Swept as the body is (what it hides is not read), its rules on classes aside.
                var sweep = PageSweep(stripUnlikely: false, title: metadata.title)
                _ = sweep.run(marked)
                let blocks = blocks(of: marked)
                if blocks.reduce(0, { $0 + $1.text.unicodeScalars.count }) > bestLength { best = blocks }
            }
        }
        guard !best.isEmpty else { throw .noText }
        return assemble(best, metadata: metadata)
    }

    /// Bytes that are UTF-8 with some non-ASCII in them are UTF-8, whatever the page declares:
    /// text in a legacy multi-byte charset is almost never valid UTF-8, and a page saved or
    /// re-served as UTF-8 keeps its old `<meta charset>`.
    static func isUTF8Text(_ bytes: [UInt8]) -> Bool {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return false }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// One run of the article's text: a heading or a paragraph.
    struct Block: Equatable {
        var text: String
        var isHeading: Bool
    }

    /// One attempt of Readability.js's `_grabArticle` on a body.
    static func grab(_ body: HTMLNode, sweep: inout PageSweep, weighClasses: Bool, cleanConditionally: Bool) -> [Block] {
        let elements = sweep.run(body)
        let candidates = score(elements, weighClasses: weighClasses)
        let article: [HTMLNode]
        if let top = topCandidate(candidates, body: body) {
            article = gather(top)
        } else {
            // Nothing scored, or the body itself did: the whole body is the article.
            article = [body]
        }
        prepare(article, weighClasses: weighClasses, cleanConditionally: cleanConditionally)
        return article.flatMap(blocks(of:))
    }

    /// The one element a page marks as its article, if it marks exactly one.
    static func markedArticle(_ root: HTMLNode) -> HTMLNode? {
        for test in [
            { (n: HTMLNode) in n.attributes["itemprop"]?.lowercased().contains("articlebody") == true }, { $0.name == "article" }, { $0.name == "main" },
        ] {
            var found: [HTMLNode] = []
            root.descendants { if test($0) { found.append($0) } }
            if found.count == 1 { return found[0] }
        }
        return nil
    }

    // MARK: Text

    /// The blocks of text under `node`, in order: headings on their own, paragraphs split where
    /// blocks begin and end.
    static func blocks(of node: HTMLNode) -> [Block] {
        var out: [Block] = []
        var current = ""
        func flush() {
            let text = Whitespace.collapse(current)
            if !text.isEmpty { out.append(Block(text: text, isHeading: false)) }
            current = ""
        }
        func walk(_ node: HTMLNode) {
            if node.isText {
                current += node.text
                return
            }
            if node.isHeading {
                flush()
                let text = node.innerText
                if !text.isEmpty { out.append(Block(text: text, isHeading: true)) }
                return
            }
            let isBlock = node.isBreak || node.isParagraph
            if isBlock { flush() }
            for child in node.children { walk(child) }
            if isBlock { flush() }
        }
        walk(node)
        flush()
        return out
    }

    /// Blocks into chapters: each heading after the first paragraph starts one; the article's
    /// own title heading at the top is not repeated as a chapter.
    static func assemble(_ blocks: [Block], metadata: PageMetadata) -> Article {
        var chapters: [Article.Chapter] = []
        var title = metadata.title ?? blocks.first(where: \.isHeading)?.text ?? "Untitled article"
        if title.isEmpty { title = "Untitled article" }
        var current = Article.Chapter(title: title, paragraphs: [])
        for block in blocks {
            if block.isHeading {
                if current.paragraphs.isEmpty {
                    if chapters.isEmpty && Self.sameText(block.text, title) { continue }
                    current.title = chapters.isEmpty && current.title == title ? block.text : current.title
                    if !chapters.isEmpty { current.title = block.text }
                    continue
                }
                chapters.append(current)
                current = Article.Chapter(title: block.text, paragraphs: [])
            } else {
                current.paragraphs.append(block.text)
            }
        }
        if !current.paragraphs.isEmpty { chapters.append(current) }
        return Article(title: title, author: metadata.author, chapters: chapters)
    }

    static func sameText(_ a: String, _ b: String) -> Bool {
        a.lowercased().filter { $0.isLetter || $0.isNumber } == b.lowercased().filter { $0.isLetter || $0.isNumber }
    }
}
