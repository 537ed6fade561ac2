import JukeCore

/// What a page says about its article outside the text: the title (Open Graph's, Twitter's,
/// or the document's without the site's name after it) and the author (a meta tag, a
/// `rel=author` link, an `itemprop=author`, or a byline).
struct PageMetadata: Equatable {
    var title: String?
    var author: String?

    static func read(_ root: HTMLNode) -> PageMetadata {
        var metas: [String: String] = [:]
        var documentTitle: String?
        var byline: String?
        var h1: [String] = []
        root.descendants { node in
            switch node.name {
            case "meta":
                let key = (node.attributes["property"] ?? node.attributes["name"] ?? node.attributes["itemprop"] ?? "").lowercased()
                if let content = node.attributes["content"].map(Whitespace.collapse), !content.isEmpty, !key.isEmpty, metas[key] == nil {
                    metas[key] = content
                }
            case "title":
                if documentTitle == nil { documentTitle = node.innerText }
            case "h1":
                h1.append(node.innerText)
            default:
                if byline == nil,
                    node.attributes["rel"] == "author" || node.attributes["itemprop"] == "author"
                        || node.attributes["class"].map({ ByteSearch.contains(Array($0.lowercased().utf8), Array("byline".utf8)) }) == true
                {
                    let text = node.innerText
                    if !text.isEmpty && text.count < 100 { byline = text }
                }
            }
        }
        let og = metas["og:title"] ?? metas["twitter:title"] ?? metas["dc.title"] ?? metas["title"]
        let title = og ?? documentTitle.map { cleanTitle($0, headings: h1) } ?? h1.first
        let author = metas["author"] ?? metas["article:author"] ?? metas["dc.creator"] ?? metas["byl"] ?? byline
        // A page is anyone's text, and its title and author are stored and shown as one line:
        // control characters and bidirectional overrides go here, where they enter.
        return PageMetadata(
            title: TextRules.cleanedOrNil(title ?? "", limit: 500),
            author: TextRules.cleanedOrNil(author.map(stripBy) ?? "", limit: 200).flatMap { $0.hasPrefix("http") ? nil : $0 })
    }

    /// "An article | The Site" → "An article": the part before a separator, when it is long
    /// enough to be a title, or the page's own heading when it matches.
    static func cleanTitle(_ title: String, headings: [String]) -> String {
        if let heading = headings.first(where: { !$0.isEmpty && title.contains($0) }), heading.unicodeScalars.count >= 4 { return heading }
        for separator in [" | ", " - ", " – ", " — ", " :: ", " » ", " / "] {
            if let range = title.range(of: separator) {
                let first = String(title[..<range.lowerBound])
                if first.split(separator: " ").count >= 3 { return first }
            }
        }
        return title
    }

    static func stripBy(_ text: String) -> String {
        let trimmed = Whitespace.collapse(text)
        return trimmed.lowercased().hasPrefix("by ") ? String(trimmed.dropFirst(3)) : trimmed
    }
}
