/// The class and id words by which Readability (Arc90's, as readability-lxml and Mozilla's
/// carry it on) tells an article's body from what surrounds it, and how it weighs elements.
enum ReadabilityRules {
    static let unlikely = bytes([
        "combx", "comment", "community", "disqus", "extra", "foot", "header", "menu", "remark", "rss", "shoutbox", "sidebar", "sponsor",
        "ad-break", "agegate", "pagination", "pager", "popup", "tweet", "twitter", "cookie", "banner", "newsletter", "subscribe",
    ])
    static let maybe = bytes(["and", "article", "body", "column", "content", "main", "shadow"])
    static let negative = bytes([
        "combx", "comment", "com-", "contact", "foot", "footer", "footnote", "masthead", "media", "meta", "outbrain", "promo", "related",
        "scroll", "shoutbox", "sidebar", "sponsor", "shopping", "tags", "tool", "widget", "share", "social", "byline-share", "newsletter",
    ])
    static let positive = bytes(["article", "body", "content", "entry", "hentry", "main", "page", "pagination", "post", "text", "blog", "story"])
    /// A div holding none of these is a paragraph in all but name.
    static let blockChildren: Set<String> = ["a", "blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul", "section", "article", "figure"]
    /// Inline content: runs of it directly in a div with blocks are paragraphs of their own.
    static let inline: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd", "mark", "q", "s", "samp", "small", "span",
        "strong", "sub", "sup", "time", "u", "var", "del", "ins",
    ]
    /// Elements whose text is scored.
    static let scored: Set<String> = ["p", "pre", "td"]
    /// The shortest paragraph that counts.
    static let minLength = 25

    static func bytes(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }

    static func contains(_ text: [UInt8], any words: [[UInt8]]) -> Bool { words.contains { ByteSearch.contains(text, $0) } }

    /// +25 for a hopeful class or id, -25 for a doubtful one (each).
    static func classWeight(_ node: HTMLNode) -> Double {
        var weight = 0.0
        for value in [node.attributes["class"], node.attributes["id"]] {
            guard let value = value.map({ Array($0.lowercased().utf8) }), !value.isEmpty else { continue }
            if contains(value, any: negative) { weight -= 25 }
            if contains(value, any: positive) { weight += 25 }
        }
        return weight
    }

    /// A candidate's starting score, by its kind and its class.
    static func initialScore(_ node: HTMLNode) -> Double {
        let byTag: Double
        switch node.name {
        case "div", "article", "main", "section": byTag = 5
        case "pre", "td", "blockquote": byTag = 3
        case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": byTag = -3
        case "h1", "h2", "h3", "h4", "h5", "h6", "th": byTag = -5
        default: byTag = 0
        }
        return byTag + classWeight(node)
    }
}
