/// The readable article in a web page: Readability's method (the one readability-lxml and
/// Firefox's reader view use), on Juke's own lenient HTML tree.
///
/// 1. Elements whose class or id says they are comments, menus, footers, sidebars or ads go.
/// 2. Divs with no block inside are paragraphs.
/// 3. Each paragraph of 25 characters or more scores (1, its commas, its length) for its parent
///    and half for its grandparent; each candidate's score is cut by its share of link text.
/// 4. The best candidate, with its siblings that score well or read as prose, is the article;
///    within it, headings and blocks that are mostly links, forms or images go.
/// If that leaves less than 500 characters, it is tried again without step 1 (the longer result is kept).
public enum ArticleExtractor {
    /// The article in a page's bytes; `url` resolves nothing but names the page.
    public static func extract(html bytes: [UInt8], httpCharset: String? = nil) throws(ArticleError) -> Article {
        let root = try HTMLTreeBuilder.build(bytes, httpCharset: httpCharset)
        defer { root.dispose() }
        let metadata = PageMetadata.read(root)
        guard let body = root.elements(named: ["body"]).first ?? Optional(root) else { throw .noText }
        var best: [String] = []
        var bestBlocks: [Block] = []
        for ruthless in [true, false] {
            let copy = ruthless ? body : try HTMLTreeBuilder.build(bytes, httpCharset: httpCharset)
            defer { if !ruthless { copy.dispose() } }
            let blocks = extractBlocks(from: ruthless ? copy : (copy.elements(named: ["body"]).first ?? copy), ruthless: ruthless)
            let text = blocks.map(\.text)
            if text.reduce(0, { $0 + $1.utf8.count }) >= 500 {
                bestBlocks = blocks
                best = text
                break
            }
            if text.reduce(0, { $0 + $1.utf8.count }) > best.reduce(0, { $0 + $1.utf8.count }) {
                best = text
                bestBlocks = blocks
            }
        }
        // Neither pass found prose (a post made of lists, say): the page's own word for its
        // article (`<article>`, `itemprop=articleBody`, `<main>`), when it says more.
        if best.reduce(0, { $0 + $1.utf8.count }) < 500 {
            let page = try HTMLTreeBuilder.build(bytes, httpCharset: httpCharset)
            defer { page.dispose() }
            if let marked = markedArticle(page) {
                removeUnlikely(marked)
                clean(marked)
                let blocks = blocks(of: marked)
                if blocks.reduce(0, { $0 + $1.text.utf8.count }) > best.reduce(0, { $0 + $1.utf8.count }) {
                    bestBlocks = blocks
                    best = blocks.map(\.text)
                }
            }
        }
        guard !best.isEmpty else { throw .noText }
        return assemble(bestBlocks, metadata: metadata)
    }

    /// One run of the article's text: a heading or a paragraph.
    struct Block: Equatable {
        var text: String
        var isHeading: Bool
    }

    static func extractBlocks(from body: HTMLNode, ruthless: Bool) -> [Block] {
        if ruthless { removeUnlikely(body) }
        paragraphsFromDivs(body)
        let candidates = score(body)
        // The best, the first of equals.
        guard var top = candidates.first else { return blocks(of: body) }
        for candidate in candidates.dropFirst() where (candidate.score ?? 0) > (top.score ?? 0) { top = candidate }
        let article = gather(top, score: top.score ?? 0)
        for node in article { clean(node) }
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

    // MARK: 1. Unlikely candidates

    static func removeUnlikely(_ root: HTMLNode) {
        var doomed: [HTMLNode] = []
        root.descendants { node in
            guard node.name != "body", node.name != "html", node.name != "article", node.name != "main" else { return }
            if ["nav", "aside", "footer"].contains(node.name) || node.attributes["role"] == "navigation" || node.attributes["role"] == "complementary" {
                doomed.append(node)
                return
            }
            guard node.attributes["class"] != nil || node.attributes["id"] != nil else { return }
            let words = node.classAndID
            guard words.count >= 2 else { return }
            if ReadabilityRules.contains(words, any: ReadabilityRules.unlikely) && !ReadabilityRules.contains(words, any: ReadabilityRules.maybe) {
                doomed.append(node)
            }
        }
        for node in doomed { node.remove() }
    }

    // MARK: 2. Divs that are paragraphs

    static func paragraphsFromDivs(_ root: HTMLNode) {
        _ = markParagraphs(root)
    }

    /// Bottom up, once: whether a node holds a block; a div that holds none is a paragraph,
    /// and one that does has its loose text wrapped.
    static func markParagraphs(_ node: HTMLNode) -> Bool {
        var hasBlock = false
        for child in node.children where !child.isText {
            if markParagraphs(child) || child.isBlockChild { hasBlock = true }
        }
        if node.name == "div" {
            if hasBlock { wrapLooseText(node) } else { node.isParagraph = true }
        }
        return hasBlock
    }

    /// Text written straight into a div beside its blocks (lines split by `<br>`, as blog
    /// engines write posts) becomes paragraphs, one per run between blocks and line breaks.
    static func wrapLooseText(_ div: HTMLNode) {
        var children: [HTMLNode] = []
        var run: [HTMLNode] = []
        func close() {
            defer { run = [] }
            guard run.contains(where: { !($0.isText ? Whitespace.collapse($0.text) : $0.innerText).isEmpty }) else {
                children += run
                return
            }
            let paragraph = HTMLNode(name: "p")
            for node in run { paragraph.append(node) }
            paragraph.parent = div
            children.append(paragraph)
        }
        for child in div.children {
            if child.isText || child.isInline {
                run.append(child)
            } else {
                close()
                children.append(child)
            }
        }
        close()
        div.children = children
    }

    // MARK: 3. Scores

    /// Scores the containers of paragraphs (on the nodes themselves); returns them in the order
    /// they became candidates.
    static func score(_ root: HTMLNode) -> [HTMLNode] {
        var candidates: [HTMLNode] = []
        func add(_ node: HTMLNode, _ points: Double) {
            if node.score == nil {
                node.score = ReadabilityRules.initialScore(node)
                candidates.append(node)
            }
            node.score = (node.score ?? 0) + points
        }
        root.descendants { node in
            guard node.isScored || node.isParagraph, let parent = node.parent else { return }
            let text = node.innerText
            guard text.utf8.count >= ReadabilityRules.minLength else { return }
            let points = 1 + Double(commas(text) + 1) + min(Double(text.unicodeScalars.count) / 100, 3)
            add(parent, points)
            if let grand = parent.parent, grand.name != "#document" { add(grand, points / 2) }
        }
        for candidate in candidates { candidate.score = (candidate.score ?? 0) * (1 - linkDensity(candidate)) }
        return candidates
    }

    static func commas(_ text: String) -> Int { text.utf8.reduce(0) { $0 + ($1 == 0x2C ? 1 : 0) } }

    static func linkDensity(_ node: HTMLNode) -> Double {
        let total = node.textLength
        guard total > 0 else { return 0 }
        return Double(linkTextLength(node)) / Double(total)
    }

    static func linkTextLength(_ node: HTMLNode) -> Int {
        var sum = 0
        for child in node.children where !child.isText {
            sum += child.name == "a" ? child.textLength : linkTextLength(child)
        }
        return sum
    }

    // MARK: 4. The article and its siblings

    static func gather(_ top: HTMLNode, score: Double) -> [HTMLNode] {
        guard let parent = top.parent else { return [top] }
        let threshold = max(10, score * 0.2)
        var out: [HTMLNode] = []
        for sibling in parent.children where !sibling.isText {
            if sibling === top {
                out.append(sibling)
                continue
            }
            if let value = sibling.score, value >= threshold {
                out.append(sibling)
                continue
            }
            guard sibling.name == "p" || sibling.isParagraph else { continue }
            let text = sibling.innerText
            let density = linkDensity(sibling)
            if text.unicodeScalars.count > 80 && density < 0.25 {
                out.append(sibling)
            } else if text.unicodeScalars.count <= 80 && density == 0 && (text.hasSuffix(".") || text.contains(". ")) {
                out.append(sibling)
            }
        }
        return out
    }

    // MARK: 5. Cleaning the article

    static func clean(_ article: HTMLNode) {
        var doomed: [HTMLNode] = []
        article.descendants { node in
            switch node.name {
            case "form", "input", "fieldset", "nav", "aside", "footer": doomed.append(node)
            case "h1", "h2", "h3", "h4", "h5", "h6":
                if ReadabilityRules.classWeight(node) < 0 || linkDensity(node) > 0.33 { doomed.append(node) }
            case "table", "ul", "ol", "div", "section", "figure":
                if shouldDrop(node) { doomed.append(node) }
            default: break
            }
        }
        for node in doomed where node.parent != nil { node.remove() }
    }

    /// Readability's conditional cleaning: a block that is mostly links, images or inputs, or
    /// too short to be prose, is not the article's.
    static func shouldDrop(_ node: HTMLNode) -> Bool {
        let weight = ReadabilityRules.classWeight(node)
        if weight < 0 { return true }
        let text = node.innerText
        if commas(text) >= 10 { return false }
        var counts: [String: Int] = [:]
        var paragraphs = 0
        node.descendants { element in
            switch element.name {
            case "p": paragraphs += 1
            case "div" where element.isParagraph: paragraphs += 1
            case "img", "li", "input", "embed", "pre", "blockquote": counts[element.name, default: 0] += 1
            default: break
            }
        }
        let images = counts["img", default: 0]
        let items = counts["li", default: 0] - 100
        let inputs = counts["input", default: 0]
        let embeds = counts["embed", default: 0]
        let density = linkDensity(node)
        let length = text.unicodeScalars.count
        if images > paragraphs && node.name != "figure" && !hasAncestor(node, "figure") && images > 1 { return true }
        if items > paragraphs && node.name != "ul" && node.name != "ol" { return true }
        if inputs > paragraphs / 3 && inputs > 0 { return true }
        if length < ReadabilityRules.minLength && (images == 0 || images > 2) && counts["pre", default: 0] + counts["blockquote", default: 0] == 0 {
            return true
        }
        if weight < 25 && density > 0.2 { return true }
        if weight >= 25 && density > 0.5 { return true }
        if (embeds == 1 && length < 75) || embeds > 1 { return true }
        return false
    }

    static func hasAncestor(_ node: HTMLNode, _ name: String) -> Bool {
        var current = node.parent
        while let found = current {
            if found.name == name { return true }
            current = found.parent
        }
        return false
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
