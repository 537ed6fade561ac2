/// The class and id words by which Readability (Arc90's, as readability-lxml and Mozilla's
/// Readability.js carry it on; these are Readability.js's current lists) tells an article's
/// body from what surrounds it, and how it weighs elements.
enum ReadabilityRules {
    static let unlikely = bytes([
        "-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment", "community", "cover-wrap", "disqus", "extra", "footer", "gdpr",
        "header", "legends", "menu", "related", "remark", "replies", "rss", "shoutbox", "sidebar", "skyscraper", "social", "sponsor",
        "supplemental", "ad-break", "agegate", "pagination", "pager", "popup", "yom-remote",
    ])
    static let maybe = bytes(["and", "article", "body", "column", "content", "main", "mathjax", "shadow"])
    static let negative = bytes([
        "-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "footer", "gdpr", "masthead", "media", "meta", "outbrain", "promo",
        "related", "scroll", "share", "shoutbox", "sidebar", "skyscraper", "sponsor", "shopping", "tags", "widget",
    ])
    static let positive = bytes(["article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "pagination", "post", "text", "blog", "story"])
    static let byline = bytes(["byline", "author", "dateline", "writtenby", "p-author"])
    /// Roles whose content is never the article (menus, dialogs, asides).
    static let unlikelyRoles: Set<String> = ["menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog"]
    /// A div holding none of these (at any depth) is a paragraph in all but name.
    static let blockChildren: Set<String> = ["blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"]
    /// Phrasing content: runs of it directly in a div are wrapped as paragraphs of their own
    /// (`a`, `del` and `ins` only when all they hold is phrasing too).
    static let inline: Set<String> = [
        "abbr", "audio", "b", "bdo", "br", "button", "cite", "code", "data", "datalist", "dfn", "em", "embed", "i", "img", "input", "kbd",
        "label", "mark", "math", "meter", "noscript", "object", "output", "progress", "q", "ruby", "samp", "script", "select", "small", "span",
        "strong", "sub", "sup", "textarea", "time", "var", "wbr", "font", "u", "s",
    ]
    /// Elements whose text is scored.
    static let scored: Set<String> = ["section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"]
    /// The shortest paragraph that counts.
    static let minLength = 25

    static func bytes(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }

    static func contains(_ text: [UInt8], any words: [[UInt8]]) -> Bool { words.contains { ByteSearch.contains(text, $0) } }

    /// +25 for a hopeful class or id, -25 for a doubtful one (each). "hid" counts as doubtful
    /// only as a word of its own ("hidden" is matched above).
    static func classWeight(_ node: HTMLNode) -> Double {
        var weight = 0.0
        for value in [node.attributes["class"], node.attributes["id"]] {
            guard let value = value.map({ Array($0.lowercased().utf8) }), !value.isEmpty else { continue }
            if contains(value, any: negative) || value.split(separator: 0x20).contains(where: { Array($0) == Array("hid".utf8) }) { weight -= 25 }
            if contains(value, any: positive) { weight += 25 }
        }
        return weight
    }

    /// A candidate's starting score, by its kind (as Readability.js weighs it) and its class.
    static func initialScore(_ node: HTMLNode, weighClasses: Bool = true) -> Double {
        let byTag: Double
        switch node.name {
        case "div": byTag = 5
        case "pre", "td", "blockquote": byTag = 3
        case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": byTag = -3
        case "h1", "h2", "h3", "h4", "h5", "h6", "th": byTag = -5
        default: byTag = 0
        }
        return byTag + (weighClasses ? classWeight(node) : 0)
    }
}
