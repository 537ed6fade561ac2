import Feeds

/// A page's tree from its bytes, leniently, as browsers build one: the bytes decoded (a BOM,
/// the HTTP charset, `<meta charset>`, else UTF-8 or Windows-1252), tokens from the feed
/// tokenizer (undeclared entities, bare ampersands, unclosed tags), then HTML's nesting rules
/// that matter for reading: void elements, `p` and `li` closed by what follows them, end tags
/// that close what was left open, scripts and styles dropped.
enum HTMLTreeBuilder {
    /// The bytes read at most: a page larger than this is cut (its article is near the top).
    static let maxBytes = 8 * 1024 * 1024
    /// The deepest an element is nested, as browsers do (Chromium's parser stops at 512):
    /// an element opened deeper is added beside the deepest one instead of inside it. This
    /// bounds every walk of the tree, so none depends on the depth a page asks for.
    static let maxDepth = 512
    /// The most elements a page may have: a real page has tens of thousands (a long
    /// Wikipedia article about 60,000); a page of millions of empty tags is refused.
    static let maxElements = 300_000
    /// The most nesting in all: the sum of every element's depth. Reading the article visits
    /// each element's text once for every container around it, so this, not the element count
    /// alone, is its work. A long real page comes to about a million (60,000 elements some 20
    /// deep); 50,000 divs nested in one another come to 25 million even with the depth limit.
    static let maxNesting = 6_000_000

    static func build(_ bytes: [UInt8], httpCharset: String? = nil) throws(ArticleError) -> HTMLNode {
        let slice = bytes.prefix(maxBytes)
        let decoder = FeedTextDecoder(httpCharset: httpCharset ?? metaCharset(slice))
        var utf8 = decoder.decode(slice)
        utf8 += decoder.decode([UInt8](), final: true)
        var builder = Builder()
        var tokenizer = XMLTokenizer()
        tokenizer.feed(utf8) { builder.take($0) }
        tokenizer.finish { builder.take($0) }
        guard builder.elements <= maxElements else {
            builder.root.dispose()
            throw .tooBig("the page has more than \(maxElements) elements")
        }
        guard builder.nesting <= maxNesting else {
            builder.root.dispose()
            throw .tooBig("the page nests its elements too deeply for its size")
        }
        return builder.root
    }

    /// `<meta charset=…>` or `content="text/html; charset=…"` in the first kilobytes.
    static func metaCharset(_ bytes: ArraySlice<UInt8>) -> String? {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self).lowercased()
        guard let range = head.range(of: "charset=") else { return nil }
        let rest = head[range.upperBound...].drop { $0 == "\"" || $0 == "'" || $0 == " " }
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return name.isEmpty ? nil : String(name)
    }

    struct Builder {
        let root = HTMLNode(name: "#document")
        var stack: [HTMLNode]
        /// How many elements of each name are open: an end tag that matches none is ignored
        /// at once, so thousands of stray end tags cost no search of the open elements.
        var open: [String: Int] = [:]
        /// Inside a dropped element (its name and depth), everything is skipped.
        var skipping: (name: String, depth: Int)?
        /// Elements seen; past the limit nothing more is built (the page is then refused).
        var elements = 0
        /// The sum of the depths elements were added at.
        var nesting = 0
        /// Open elements looked at to close some: kept so a test can hold the work linear.
        private(set) var searched = 0

        init() { stack = [root] }

        mutating func take(_ token: XMLToken) {
            guard elements <= HTMLTreeBuilder.maxElements, nesting <= HTMLTreeBuilder.maxNesting else { return }
            switch token {
            case .start(let rawName, let attributes, let selfClosing):
                let name = lower(rawName)
                if let skip = skipping {
                    if name == skip.name && !selfClosing { skipping = (skip.name, skip.depth + 1) }
                    return
                }
                let kind = HTMLRules.kind(name)
                if kind.contains(.dropped) {
                    if !selfClosing { skipping = (name, 1) }
                    return
                }
                elements += 1
                implyEnds(before: name, closesParagraph: kind.contains(.closesParagraph))
                var attrs: [String: String] = [:]
                for attribute in attributes { attrs[lower(attribute.name)] = attribute.value }
                let node = HTMLNode(name: name, attributes: attrs)
                nesting += stack.count
                stack.last?.append(node)
                if !selfClosing && !kind.contains(.void) && stack.count <= HTMLTreeBuilder.maxDepth { push(node) }
            case .end(let rawName):
                let name = lower(rawName)
                if let skip = skipping {
                    if name == skip.name { skipping = skip.depth > 1 ? (skip.name, skip.depth - 1) : nil }
                    return
                }
                // Close up to the matching open element, if there is one; a stray end tag is ignored.
                guard open[name, default: 0] > 0, let index = stack.lastIndex(where: { $0.name == name }), index > 0 else { return }
                searched += stack.count - index
                pop(to: index)
            case .text(let text):
                guard skipping == nil else { return }
                if let last = stack.last?.children.last, last.isText {
                    last.text += text
                } else {
                    stack.last?.append(HTMLNode(name: "", text: text))
                }
            }
        }

        mutating func push(_ node: HTMLNode) {
            stack.append(node)
            open[node.name, default: 0] += 1
        }

        /// Closes the open elements from `index` in.
        mutating func pop(to index: Int) {
            for node in stack[index...] { open[node.name, default: 1] -= 1 }
            stack.removeSubrange(index...)
        }

        /// ASCII lower case, without a copy when it already is (as nearly every tag is).
        func lower(_ name: String) -> String {
            name.utf8.contains(where: { (0x41...0x5A).contains($0) }) ? name.lowercased() : name
        }

        /// HTML's implied end tags: a block closes an open `p`, an `li` the open `li`, and so on.
        mutating func implyEnds(before name: String, closesParagraph: Bool) {
            func close(_ names: [String], within scope: [String]) {
                guard names.contains(where: { open[$0, default: 0] > 0 }),
                    let index = stack.lastIndex(where: { names.contains($0.name) || scope.contains($0.name) })
                else { return }
                // At most the depth limit, and only while such an element is open.
                searched += stack.count - index
                guard index > 0, names.contains(stack[index].name) else { return }
                pop(to: index)
            }
            if closesParagraph { close(Self.paragraph, within: Self.paragraphScope) }
            switch name {
            case "li": close(["li"], within: ["ul", "ol", "menu"])
            case "dt", "dd": close(["dt", "dd"], within: ["dl"])
            case "tr": close(["tr", "td", "th"], within: ["table", "tbody", "thead", "tfoot"])
            case "td", "th": close(["td", "th"], within: ["tr", "table"])
            case "option": close(["option"], within: ["select"])
            default: break
            }
        }

        static let paragraph = ["p"]
        static let paragraphScope = ["div", "td", "th", "li", "blockquote", "section", "article", "body"]
    }
}
