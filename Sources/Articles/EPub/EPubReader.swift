import Feeds

/// An ePub (2 or 3) as an article: its title and author from the package's metadata, and a
/// chapter per document of its spine (the reading order), titled from its table of contents
/// (ePub 3's nav document, or ePub 2's NCX), else the document's first heading. Covers and
/// other documents without text are left out. Everything inside is read with the same lenient
/// readers as web pages; a damaged book is a clear error. A fixed-layout book may set its pages
/// as SVG (inline, or as the spine's documents) or as images with an XHTML fallback: the SVG's
/// text is read, and an image is read by its fallback, as a reader that cannot show it would.
public enum EPubReader {
    public static func read(_ bytes: [UInt8]) throws(ArticleError) -> Article {
        var zip = try ZIPArchive(bytes)
        guard let container = try zip.file("META-INF/container.xml") else { throw .unreadable("not an ePub (no META-INF/container.xml)") }
        guard let opfPath = try elements(container).first(where: { $0.name == "rootfile" })?.attributes["full-path"], !opfPath.isEmpty else {
            throw .unreadable("not an ePub (its container names no package)")
        }
        guard let opf = try zip.file(opfPath) else { throw .unreadable("a damaged ePub (its package \(opfPath) is missing)") }
        let base = directory(of: opfPath)
        let package = Package(try elements(opf))
        // The table of contents: file → title.
        var titles: [String: String] = [:]
        if let nav = package.navHref.map({ resolve($0, against: base) }), let navBytes = try zip.file(nav) {
            titles = try tocFromNav(navBytes, base: directory(of: nav))
        } else if let ncx = package.ncxHref.map({ resolve($0, against: base) }), let ncxBytes = try zip.file(ncx) {
            titles = try tocFromNCX(ncxBytes, base: directory(of: ncx))
        }
        // What the spine would take out, by the sizes the archive states (each checked when
        // read): a book past the budget is refused before a chapter is read, not after four.
        let stated = package.spine.reduce(0) { $0 + (zip.entries[resolve($1.href, against: base)]?.size ?? 0) }
        guard stated <= ZIPArchive.totalLimit else {
            throw .tooBig("its chapters come to more than \(ZIPArchive.totalLimit / 1_000_000) MB when read")
        }
        var chapters: [Article.Chapter] = []
        var textBytes = 0
        // Several images may share one fallback: it is read once.
        var fallbacksRead: Set<String> = []
        for (href, isFallback) in package.spine {
            let path = resolve(href, against: base)
            if isFallback {
                guard fallbacksRead.insert(path).inserted else { continue }
            }
            guard let document = try zip.file(path) else { continue }
            let root = try HTMLTreeBuilder.build(document)
            defer { root.dispose() }
            let body = root.elements(named: ["body"]).first ?? root
            for nav in body.elements(named: ["nav"]) { nav.remove() }
            var blocks = ArticleExtractor.blocks(of: body)
            // The HTML reader drops SVG whole (a web page's icons and charts); a page set as SVG
            // is read by its text elements, after the page's own headings.
            if !blocks.contains(where: { !$0.isHeading }) {
                blocks = blocks.filter(\.isHeading) + (try svgText(document)).map { ArticleExtractor.Block(text: $0, isHeading: false) }
            }
            guard blocks.contains(where: { !$0.isHeading }) else { continue }
            var title = titles[path]
            // The document's first heading is its title when the contents give none or the same;
            // a heading that says more than the contents' entry is read as the chapter's first line.
            if let first = blocks.first, first.isHeading, title == nil || ArticleExtractor.sameText(first.text, title ?? "") {
                title = first.text
                blocks.removeFirst()
            }
            let paragraphs = blocks.map(\.text)
            guard !paragraphs.isEmpty else { continue }
            textBytes += paragraphs.reduce(0) { $0 + $1.utf8.count }
            guard textBytes <= Article.maxTextBytes else { throw .tooBig("its text is longer than \(Article.maxTextBytes >> 20) MB") }
            chapters.append(Article.Chapter(title: title ?? "Chapter \(chapters.count + 1)", paragraphs: paragraphs))
        }
        guard !chapters.isEmpty else { throw .noText }
        return Article(title: package.title ?? chapters[0].title, author: package.author, chapters: chapters)
    }

    /// What the package document (OPF) says: metadata, the manifest and the spine.
    struct Package {
        var title: String?
        var author: String?
        /// The documents read, in order: an item Juke cannot read (an image) is replaced by its
        /// fallback, which several items may share.
        var spine: [(href: String, isFallback: Bool)] = []
        var navHref: String?
        var ncxHref: String?

        init(_ elements: [Element]) {
            var manifest: [String: (href: String, type: String, properties: String, fallback: String?)] = [:]
            var spineIDs: [String] = []
            var tocID: String?
            for element in elements {
                switch element.localName {
                case "title" where title == nil && !element.text.isEmpty: title = element.text
                case "creator" where author == nil && !element.text.isEmpty: author = element.text
                case "item":
                    if let id = element.attributes["id"], let href = element.attributes["href"] {
                        manifest[id] = (href, element.attributes["media-type"] ?? "", element.attributes["properties"] ?? "", element.attributes["fallback"])
                    }
                case "spine": tocID = element.attributes["toc"]
                case "itemref":
                    if let id = element.attributes["idref"], element.attributes["linear"] != "no" { spineIDs.append(id) }
                default: break
                }
            }
            for id in spineIDs {
                // The fallback chain, each item once (a chain may loop).
                var seen: Set<String> = []
                var current = id
                while seen.insert(current).inserted, let item = manifest[current] {
                    if EPubReader.isDocument(item.type) {
                        spine.append((item.href, current != id))
                        break
                    }
                    guard let fallback = item.fallback else { break }
                    current = fallback
                }
            }
            navHref = manifest.values.first { $0.properties.split(separator: " ").contains("nav") }?.href
            ncxHref = tocID.flatMap { manifest[$0]?.href } ?? manifest.values.first { $0.type == "application/x-dtbncx+xml" }?.href
        }
    }

    /// A media type read as a document: (X)HTML, SVG or another XML; none stated is tried too.
    /// Images, audio and the rest are not text (their bytes would read as noise).
    static func isDocument(_ mediaType: String) -> Bool {
        let type = String(mediaType.lowercased().prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" })
        return type.isEmpty || type.hasSuffix("xml") || type.hasSuffix("html")
    }

    /// The text an SVG draws: a paragraph per `<text>` element (its `<tspan>` lines joined), in
    /// order. Titles, descriptions and styles are not drawn, so not read.
    static func svgText(_ bytes: [UInt8]) throws(ArticleError) -> [String] {
        var out: [String] = []
        var current = ""
        var depth = 0
        var elements = 0
        var textBytes = 0
        let take: (XMLToken) -> Void = { token in
            switch token {
            case .start(let name, let attributes, let selfClosing):
                elements += 1
                guard !selfClosing, elements <= maxElements else { return }
                let local = name.split(separator: ":").last.map { $0.lowercased() } ?? ""
                if local == "text" {
                    depth += 1
                } else if depth > 0, attributes.contains(where: { $0.name == "y" || $0.name == "dy" }), !current.isEmpty {
                    // A line placed on its own: a space between it and the last.
                    current += " "
                }
            case .end(let name):
                guard depth > 0, name.split(separator: ":").last?.lowercased() == "text" else { return }
                depth -= 1
                if depth == 0 {
                    let text = Whitespace.collapse(current)
                    if !text.isEmpty { out.append(text) }
                    current = ""
                }
            case .text(let text):
                guard depth > 0, textBytes <= Article.maxTextBytes else { return }
                textBytes += text.utf8.count
                current += text
            }
        }
        tokens(of: bytes, take)
        guard elements <= maxElements else { throw .tooBig("a page lists more than \(maxElements) elements") }
        guard textBytes <= Article.maxTextBytes else { throw .tooBig("its text is longer than \(Article.maxTextBytes >> 20) MB") }
        return out
    }

    /// ePub 3's nav document: the links of its table of contents.
    static func tocFromNav(_ bytes: [UInt8], base: String) throws(ArticleError) -> [String: String] {
        let root = try HTMLTreeBuilder.build(bytes)
        defer { root.dispose() }
        var out: [String: String] = [:]
        let navs = root.elements(named: ["nav"])
        let toc = navs.first { ($0.attributes["epub:type"] ?? $0.attributes["type"] ?? "").contains("toc") } ?? navs.first
        for link in toc?.elements(named: ["a"]) ?? [] {
            guard let href = link.attributes["href"] else { continue }
            let file = resolve(String(href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]), against: base)
            let text = link.innerText
            if out[file] == nil, !text.isEmpty { out[file] = text }
        }
        return out
    }

    /// ePub 2's NCX: each navPoint's label and content.
    static func tocFromNCX(_ bytes: [UInt8], base: String) throws(ArticleError) -> [String: String] {
        var out: [String: String] = [:]
        var label: String?
        for element in try elements(bytes) {
            switch element.localName {
            case "text": label = element.text
            case "content":
                if let src = element.attributes["src"], let text = label, !text.isEmpty {
                    let file = resolve(String(src.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]), against: base)
                    if out[file] == nil { out[file] = text }
                }
                label = nil
            default: break
            }
        }
        return out
    }

    // MARK: Small XML

    /// An element of a small XML document, with the text directly inside it.
    struct Element {
        var name: String
        var attributes: [String: String]
        var text: String
        var localName: String { name.split(separator: ":").last.map { String($0).lowercased() } ?? name.lowercased() }
    }

    /// The most elements read from a package, container or NCX (a long book's package lists a
    /// few thousand files).
    static let maxElements = 100_000

    /// Every element of a small document, in order (nesting is not needed here).
    static func elements(_ bytes: [UInt8]) throws(ArticleError) -> [Element] {
        var out: [Element] = []
        var tooMany = false
        var open: [Int] = []
        let take: (XMLToken) -> Void = { token in
            switch token {
            case .start(let name, let attributes, let selfClosing):
                guard out.count < maxElements else {
                    tooMany = true
                    return
                }
                var attrs: [String: String] = [:]
                for attribute in attributes { attrs[attribute.name.split(separator: ":").last.map(String.init) ?? attribute.name] = attribute.value }
                for attribute in attributes where attribute.name.contains(":") { attrs[attribute.name] = attribute.value }
                out.append(Element(name: name, attributes: attrs, text: ""))
                if !selfClosing { open.append(out.count - 1) }
            case .end:
                if let index = open.popLast() { out[index].text = Whitespace.collapse(out[index].text) }
            case .text(let text):
                if let index = open.last { out[index].text += text }
            }
        }
        tokens(of: bytes, take)
        guard !tooMany else { throw .tooBig("a part of the book lists more than \(maxElements) elements") }
        return out
    }

    /// A small document's XML tokens, its bytes decoded as feeds are (a BOM, the declared
    /// encoding, else UTF-8 or Windows-1252).
    static func tokens(of bytes: [UInt8], _ take: (XMLToken) -> Void) {
        let decoder = FeedTextDecoder()
        var utf8 = decoder.decode(bytes)
        utf8 += decoder.decode([UInt8](), final: true)
        var tokenizer = XMLTokenizer()
        tokenizer.feed(utf8, take)
        tokenizer.finish(take)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// A relative href inside the archive, against a folder: `..` and `.` resolved, %-escapes decoded.
    static func resolve(_ href: String, against base: String) -> String {
        let decoded = href.removingPercentEncodingLeniently
        var parts: [Substring] = decoded.hasPrefix("/") ? [] : base.split(separator: "/")
        for part in decoded.split(separator: "/") {
            if part == ".." {
                _ = parts.popLast()
            } else if part != "." {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}

extension String {
    /// %XX escapes decoded where they make UTF-8; anything else left as it is.
    var removingPercentEncodingLeniently: String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            if byte == 0x25, utf8.count >= 2, let high = hexValue(utf8[utf8.startIndex]), let low = hexValue(utf8[utf8.startIndex + 1]) {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
