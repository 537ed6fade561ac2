/// Readability.js's `_prepArticle` on the gathered article, as far as it changes the text:
/// forms and fieldsets, asides, footers, embeds, controls and small share widgets go,
/// headings that look like chrome go, and tables, lists and divs are cleaned conditionally
/// (innermost first) unless they are data tables.
extension ArticleExtractor {
    static let adWords: Set<String> = ["ad", "advertising", "advertisement", "pub", "publicité", "werb", "werbung", "广告", "реклама", "anuncio"]
    static let loadingWords: Set<String> = [
        "loading", "正在加载", "загрузка", "chargement", "cargando", "loading…", "loading...", "正在加载…", "正在加载...", "загрузка…", "загрузка...",
        "chargement…", "chargement...", "cargando…", "cargando...",
    ]
    static let textish: Set<String> = ["span", "li", "td", "blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"]

    static func prepare(_ article: [HTMLNode], weighClasses: Bool, cleanConditionally: Bool) {
        var dataTables = Set<ObjectIdentifier>()
        for root in article {
            for table in all(root, ["table"]) where isDataTable(table) { dataTables.insert(ObjectIdentifier(table)) }
        }
        let context = Context(dataTables: dataTables, weighClasses: weighClasses)
        for root in article {
            if cleanConditionally {
                for tag in ["form", "fieldset"] { conditionallyClean(root, tag, context) }
            }
            removeAll(root, ["object", "embed", "footer", "link", "aside", "iframe", "input", "textarea", "select", "button"])
            // Little share widgets under the article's top-level blocks (not those blocks).
            var shares: [HTMLNode] = []
            for child in root.children where !child.isText {
                child.descendants { node in
                    let tokens = node.classAndID.split { !(0x61...0x7A).contains($0) && !(0x30...0x39).contains($0) && $0 < 0x80 }
                    if tokens.contains(where: { $0.elementsEqual("share".utf8) || $0.elementsEqual("sharedaddy".utf8) }) && node.textLength < 500 {
                        shares.append(node)
                    }
                }
            }
            for node in shares where node.parent != nil { node.remove() }
            if weighClasses {
                for heading in all(root, ["h1", "h2"]) where ReadabilityRules.classWeight(heading) < 0 && heading.parent != nil { heading.remove() }
            }
            if cleanConditionally {
                for tag in ["table", "ul", "div"] { conditionallyClean(root, tag, context) }
            }
        }
    }

    struct Context {
        var dataTables: Set<ObjectIdentifier>
        var weighClasses: Bool
    }

    /// The elements named so under `root` (and `root` itself), in document order.
    static func all(_ root: HTMLNode, _ names: Set<String>) -> [HTMLNode] {
        var out: [HTMLNode] = names.contains(root.name) ? [root] : []
        root.descendants { if names.contains($0.name) { out.append($0) } }
        return out
    }

    static func removeAll(_ root: HTMLNode, _ names: Set<String>) {
        for node in all(root, names) where node !== root && node.parent != nil { node.remove() }
    }

    /// Readability.js's `_markDataTables`: a table of data, not of layout.
    static func isDataTable(_ table: HTMLNode) -> Bool {
        if table.attributes["role"] == "presentation" || table.attributes["datatable"] == "0" { return false }
        if table.attributes["summary"] != nil { return true }
        var nested = false
        var marked = false
        var rows = 0
        var columns = 0
        table.descendants { node in
            switch node.name {
            case "caption": if node.children.contains(where: { !$0.isText || !PageSweep.isBlank($0.text) }) { marked = true }
            case "col", "colgroup", "tfoot", "thead", "th": marked = true
            case "table": nested = true
            case "tr":
                rows += 1
                var cells = 0
                for cell in node.children where cell.name == "td" || cell.name == "th" { cells += Int(cell.attributes["colspan"] ?? "") ?? 1 }
                columns = max(columns, cells)
            default: break
            }
        }
        if marked { return true }
        if nested { return false }
        if rows == 1 || columns == 1 { return false }
        if rows >= 10 || columns > 4 { return true }
        return rows * columns > 10
    }

    /// Removes, innermost first, the elements named `tag` that look like chrome.
    static func conditionallyClean(_ root: HTMLNode, _ tag: String, _ context: Context) {
        for node in all(root, [tag]).reversed() where node.parent != nil && node !== root {
            if tag == "div" && node.isParagraph { continue }
            if shouldRemove(node, tag, context) { node.remove() }
        }
    }

    static func shouldRemove(_ node: HTMLNode, _ tag: String, _ context: Context) -> Bool {
        let isData = { (n: HTMLNode) in context.dataTables.contains(ObjectIdentifier(n)) }
        if tag == "table" && isData(node) { return false }
        if hasAncestor(node, "table", where: isData) || hasAncestor(node, "code", depth: 3) { return false }
        var containsDataTable = false
        var paragraphs = 0
        var images = 0
        var items = 0
        var inputs = 0
        var embeds = 0
        var headingLength = 0
        var listLength = 0
        var hasTextish = false
        node.descendants { element in
            switch element.name {
            case "p": paragraphs += 1
            case "div" where element.isParagraph: paragraphs += 1
            case "img": images += 1
            case "li": items += 1
            case "input": inputs += 1
            case "object", "embed", "iframe": embeds += 1
            case "table" where isData(element): containsDataTable = true
            default: break
            }
        }
        if containsDataTable { return false }
        // The text in headings and in lists, each counted once at its outermost element (never
        // walking a subtree twice, so nested lists cost no more than flat ones).
        var outer: [HTMLNode] = node.children
        while let element = outer.popLast() {
            guard !element.isText else { continue }
            switch element.name {
            case "h1", "h2", "h3", "h4", "h5", "h6": headingLength += element.textLength
            case "ul", "ol": listLength += element.textLength
            default: outer.append(contentsOf: element.children)
            }
        }
        let rawLength = node.textLength
        // Whether any text sits inside a text-holding element (one walk, stopping at the first).
        var textWalk: [(HTMLNode, Bool)] = node.children.map { ($0, false) }
        while !hasTextish, let (element, inside) = textWalk.popLast() {
            if element.isText {
                if inside && !PageSweep.isBlank(element.text) { hasTextish = true }
                continue
            }
            let nowInside = inside || textish.contains(element.name)
            for child in element.children { textWalk.append((child, nowInside)) }
        }
        let weight = context.weighClasses ? ReadabilityRules.classWeight(node) : 0
        if weight < 0 { return true }
        let text = node.innerText
        if commas(text) >= 10 { return false }
        let lowered = text.lowercased()
        if adWords.contains(lowered) || loadingWords.contains(lowered) { return true }
        let length = text.unicodeScalars.count
        let isList = tag == "ul" || tag == "ol" || (rawLength > 0 && Double(listLength) / Double(rawLength) > 0.9)
        let density = linkDensity(node)
        let headingDensity = rawLength > 0 ? Double(headingLength) / Double(rawLength) : 0
        let inFigure = hasAncestor(node, "figure")
        var remove = false
        if !inFigure && images > 1 && Double(paragraphs) / Double(images) < 0.5 { remove = true }
        if !isList && items - 100 > paragraphs { remove = true }
        if inputs > paragraphs / 3 { remove = true }
        if !isList && !inFigure && headingDensity < 0.9 && length < 25 && (images == 0 || images > 2) && density > 0 { remove = true }
        if !isList && weight < 25 && density > 0.2 { remove = true }
        if weight >= 25 && density > 0.5 { remove = true }
        if (embeds == 1 && length < 75) || embeds > 1 { remove = true }
        if images == 0 && !hasTextish { remove = true }
        // A list of images, one to an item, stays.
        if isList && remove {
            if node.children.contains(where: { $0.children.filter { !$0.isText }.count > 1 }) { return true }
            if images == items { return false }
        }
        return remove
    }
}
