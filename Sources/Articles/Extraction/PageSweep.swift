/// The first pass of Readability.js's `_grabArticle` over a page's body, in document order:
/// hidden elements, the byline, the heading that repeats the title, unlikely candidates and
/// empty blocks go; loose phrasing content in divs is wrapped in paragraphs, and divs that
/// hold no block become paragraphs. Returns the elements to score, in document order.
///
/// Walked with a stack of its own (never recursion on the page's depth); which elements hold
/// a block somewhere below is found first in one bottom-up pass, so asking costs nothing.
struct PageSweep {
    var stripUnlikely: Bool
    var title: String?
    /// Whether a byline was found (and removed) yet: only the first goes.
    var bylineFound = false

    mutating func run(_ body: HTMLNode) -> [HTMLNode] {
        let blocky = Self.nodesHoldingBlocks(body)
        var toScore: [HTMLNode] = []
        var removeTitleHeader = title != nil
        var pending: [HTMLNode] = body.children.reversed()
        while let node = pending.popLast() {
            guard !node.isText, node.parent != nil else { continue }
            if shouldRemove(node, removeTitleHeader: &removeTitleHeader) {
                node.remove()
                continue
            }
            var current = node
            if node.isScored { toScore.append(node) }
            if node.name == "div" {
                wrapPhrasing(node)
                if let only = Self.singleParagraph(node), ArticleExtractor.linkDensity(node) < 0.25 {
                    // A div around one paragraph is that paragraph (each paragraph wrapped so
                    // would otherwise score its div, not the article).
                    replace(node, with: only)
                    current = only
                    toScore.append(only)
                } else if !blocky.contains(ObjectIdentifier(node)) && !node.children.contains(where: { $0.name == "p" }) {
                    node.isParagraph = true
                    toScore.append(node)
                }
            }
            pending.append(contentsOf: current.children.reversed())
        }
        return toScore
    }

    mutating func shouldRemove(_ node: HTMLNode, removeTitleHeader: inout Bool) -> Bool {
        if !Visibility.isProbablyVisible(node) { return true }
        // Most elements have neither class nor id: their words are not built.
        let match = node.attributes["class"] == nil && node.attributes["id"] == nil ? [] : node.classAndID
        if !bylineFound, isByline(node, match) {
            bylineFound = true
            return true
        }
        if removeTitleHeader, node.name == "h1" || node.name == "h2", let title, Self.similarity(title, node.innerText) > 0.75 {
            removeTitleHeader = false
            return true
        }
        if stripUnlikely {
            if ReadabilityRules.contains(match, any: ReadabilityRules.unlikely) && !ReadabilityRules.contains(match, any: ReadabilityRules.maybe)
                && !ArticleExtractor.hasAncestor(node, "table", depth: 3) && !ArticleExtractor.hasAncestor(node, "code", depth: 3)
                && node.name != "body" && node.name != "a"
            {
                return true
            }
            if let role = node.attributes["role"], ReadabilityRules.unlikelyRoles.contains(role) { return true }
        }
        switch node.name {
        case "div", "section", "header", "h1", "h2", "h3", "h4", "h5", "h6":
            return Self.isEmpty(node)
        default: return false
        }
    }

    /// `rel=author`, an `itemprop` with "author", or a byline's class, around a short text.
    func isByline(_ node: HTMLNode, _ match: [UInt8]) -> Bool {
        guard
            node.attributes["rel"] == "author" || node.attributes["itemprop"]?.contains("author") == true
                || ReadabilityRules.contains(match, any: ReadabilityRules.byline)
        else { return false }
        let length = node.innerText.unicodeScalars.count
        return length > 0 && length < 100
    }

    /// No text, and nothing but line breaks and rules inside.
    static func isEmpty(_ node: HTMLNode) -> Bool {
        node.children.allSatisfy { $0.isText ? Self.isBlank($0.text) : ($0.name == "br" || $0.name == "hr") }
    }

    /// Readability.js's likeness of a heading to the title: the share of the heading's words
    /// (by length) that the title has.
    static func similarity(_ title: String, _ heading: String) -> Double {
        let words = { (s: String) in s.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init) }
        let a = Set(words(title))
        let b = words(heading)
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        let all = b.joined(separator: " ").count
        let unique = b.filter { !a.contains($0) }.joined(separator: " ").count
        return 1 - Double(unique) / Double(all)
    }

    /// The elements of the subtree that hold a block (`blockChildren`) somewhere below, found
    /// bottom up in one pass.
    static func nodesHoldingBlocks(_ root: HTMLNode) -> Set<ObjectIdentifier> {
        var order: [HTMLNode] = []
        var pending: [HTMLNode] = [root]
        while let node = pending.popLast() {
            order.append(node)
            for child in node.children where !child.isText { pending.append(child) }
        }
        var out = Set<ObjectIdentifier>()
        for node in order.reversed() {
            if node.children.contains(where: { !$0.isText && (ReadabilityRules.blockChildren.contains($0.name) || out.contains(ObjectIdentifier($0))) }) {
                out.insert(ObjectIdentifier(node))
            }
        }
        return out
    }

    /// Phrasing content: text, inline elements, and links or edits holding only those.
    static func isPhrasing(_ node: HTMLNode) -> Bool {
        if node.isText || ReadabilityRules.inline.contains(node.name) { return true }
        guard ["a", "del", "ins"].contains(node.name) else { return false }
        var pending = node.children
        while let child = pending.popLast() {
            guard child.isText || ReadabilityRules.inline.contains(child.name) || ["a", "del", "ins"].contains(child.name) else { return false }
            pending.append(contentsOf: child.children)
        }
        return true
    }

    /// Each run of phrasing content straight in the div becomes a paragraph (whitespace at
    /// its ends trimmed away); a run broken by two line breaks in a row is two paragraphs,
    /// as Readability.js's `_replaceBrs` makes them.
    func wrapPhrasing(_ div: HTMLNode) {
        guard div.children.contains(where: { $0.isText || Self.isPhrasing($0) }),
            div.children.contains(where: { !$0.isText && !Self.isPhrasing($0) }) || div.children.contains(where: { $0.name == "br" })
        else { return }
        var out: [HTMLNode] = []
        var run: [HTMLNode] = []
        func close() {
            defer { run = [] }
            // Trimmed by index (removing from the front one at a time would be quadratic).
            guard let first = run.firstIndex(where: { !Self.isWhitespace($0) }), let last = run.lastIndex(where: { !Self.isWhitespace($0) })
            else { return }
            let paragraph = HTMLNode(name: "p")
            for node in run[first...last] { paragraph.append(node) }
            paragraph.parent = div
            out.append(paragraph)
        }
        var index = 0
        let children = div.children
        while index < children.count {
            let child = children[index]
            if child.name == "br", Self.nextBreak(children, after: index) != nil {
                // Two or more breaks in a row: a paragraph ends here.
                close()
                index += 1
                while index < children.count, Self.isWhitespace(children[index]) { index += 1 }
                continue
            }
            if Self.isPhrasing(child) {
                run.append(child)
            } else {
                close()
                out.append(child)
            }
            index += 1
        }
        close()
        div.children = out
    }

    /// The index of a `<br>` following the one at `index` with only whitespace between.
    static func nextBreak(_ children: [HTMLNode], after index: Int) -> Int? {
        var i = index + 1
        while i < children.count {
            if children[i].name == "br" { return i }
            guard children[i].isText, Self.isBlank(children[i].text) else { return nil }
            i += 1
        }
        return nil
    }

    static func isWhitespace(_ node: HTMLNode) -> Bool {
        node.isText ? isBlank(node.text) : node.name == "br"
    }

    /// Whether a text is only whitespace, by its bytes where it is ASCII (Character's
    /// `isWhitespace` is a Unicode property lookup per character, and this asks of every text).
    static func isBlank(_ text: String) -> Bool {
        for byte in text.utf8 {
            if byte == 0x20 || (0x09...0x0D).contains(byte) { continue }
            return byte < 0x80 ? false : Whitespace.collapse(text).isEmpty
        }
        return true
    }

    /// The div's one child when that is a paragraph and no text sits beside it.
    static func singleParagraph(_ div: HTMLNode) -> HTMLNode? {
        let elements = div.children.filter { !$0.isText }
        guard elements.count == 1, elements[0].name == "p" else { return nil }
        guard div.children.allSatisfy({ !$0.isText || Self.isBlank($0.text) }) else { return nil }
        return elements[0]
    }

    func replace(_ node: HTMLNode, with child: HTMLNode) {
        guard let parent = node.parent, let index = parent.children.firstIndex(where: { $0 === node }) else { return }
        node.children.removeAll { $0 === child }
        parent.children[index] = child
        child.parent = parent
        node.dispose()
    }
}
