/// What HTML says of its elements, as far as a tree for reading needs it.
enum HTMLRules {
    /// Elements with no content and no end tag.
    static let void: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr", "keygen",
    ]
    /// Elements whose content is not the page's text: dropped whole. (MathML is kept: a
    /// formula is the article's text, and Firefox's reader view shows it.)
    static let dropped: Set<String> = ["script", "style", "noscript", "template", "svg", "iframe", "object", "canvas", "select", "textarea", "button"]
    /// A start tag of one of these closes an open `p` (HTML's implied end tags).
    static let closesParagraph: Set<String> = [
        "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2",
        "h3", "h4", "h5", "h6", "header", "hr", "main", "menu", "nav", "ol", "p", "pre", "section", "table", "ul",
    ]
    /// Block elements: their text is a separate run from what surrounds it.
    static let breaks: Set<String> = [
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5",
        "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "td", "th", "tr", "ul",
    ]
    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

    /// What a name makes an element, in one lookup (names are looked up for every element).
    struct Kind: OptionSet {
        let rawValue: UInt16
        static let void = Kind(rawValue: 1)
        static let dropped = Kind(rawValue: 2)
        static let closesParagraph = Kind(rawValue: 4)
        static let breaks = Kind(rawValue: 8)
        static let heading = Kind(rawValue: 16)
        static let inline = Kind(rawValue: 32)
        static let scored = Kind(rawValue: 64)
        static let blockChild = Kind(rawValue: 128)
    }

    static let kinds: [String: Kind] = {
        var out: [String: Kind] = [:]
        for (set, kind) in [
            (void, Kind.void), (dropped, .dropped), (closesParagraph, .closesParagraph), (breaks, .breaks), (headings, .heading),
            (ReadabilityRules.inline, .inline), (ReadabilityRules.scored, .scored), (ReadabilityRules.blockChildren, .blockChild),
        ] {
            for name in set { out[name, default: []].insert(kind) }
        }
        return out
    }()

    static func kind(_ name: String) -> Kind { kinds[name] ?? [] }
}
