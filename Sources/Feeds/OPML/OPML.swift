import JukeCore

/// OPML, the file podcast apps exchange subscriptions in: every outline with an `xmlUrl`,
/// however deeply grouped, read leniently (the feed tokenizer and decoder); and written back
/// as OPML 2.0.
public enum OPML {
    public struct Subscription: Sendable, Equatable {
        public var feedURL: String
        public var title: String?
        public var siteURL: String?
        /// The outline folders it sat in, outermost first.
        public var groups: [String]

        public init(feedURL: String, title: String? = nil, siteURL: String? = nil, groups: [String] = []) {
            self.feedURL = feedURL
            self.title = title
            self.siteURL = siteURL
            self.groups = groups
        }
    }

    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        case notOPML(String)
        /// More subscriptions than the reader was asked to take.
        case tooMany(Int)

        public var description: String {
            switch self {
            case .notOPML(let root): "Not an OPML file: the document is \(root.isEmpty ? "empty" : "<\(root)>")."
            case .tooMany(let limit): "The file lists more than \(limit) shows."
            }
        }
    }

    /// The folders a subscription keeps, outermost first: an outline nested deeper is still
    /// read, in the folders around it up to this depth (each subscription copies its folders,
    /// so a file of thousands nested in thousands would otherwise copy millions).
    public static let maxGroups = 16

    /// The subscriptions in an OPML document, in document order, each feed once; past `limit`
    /// of them, `ReadError.tooMany`.
    public static func read(_ bytes: some Collection<UInt8>, limit: Int = 10_000) throws -> [Subscription] {
        let decoder = FeedTextDecoder()
        var tokenizer = XMLTokenizer()
        var root: String?
        var groups: [(depth: Int, title: String?)] = []
        var depth = 0
        var found: [Subscription] = []
        var seen: Set<String> = []
        func take(_ token: XMLToken) throws {
            switch token {
            case .start(let name, let attributes, let selfClosing):
                let local = name.split(separator: ":").last.map(String.init) ?? name
                if root == nil {
                    root = local
                    guard local.lowercased() == "opml" else { throw ReadError.notOPML(name) }
                }
                depth += 1
                if local.lowercased() == "outline" {
                    func attribute(_ key: String) -> String? {
                        attributes.first { $0.name.lowercased() == key.lowercased() }.map(\.value.trimmed).flatMap { $0.isEmpty ? nil : $0 }
                    }
                    let title = attribute("title") ?? attribute("text")
                    if let url = attribute("xmlUrl") ?? attribute("url").flatMap({ attribute("type")?.lowercased() == "rss" ? $0 : nil }) {
                        if seen.insert(url).inserted {
                            guard found.count < limit else { throw ReadError.tooMany(limit) }
                            found.append(
                                Subscription(feedURL: url, title: title, siteURL: attribute("htmlUrl"), groups: groups.compactMap(\.title)))
                        }
                    } else if !selfClosing && groups.count < maxGroups {
                        groups.append((depth, title))
                    }
                }
                if selfClosing { depth -= 1 }
            case .end:
                if let last = groups.last, last.depth == depth { groups.removeLast() }
                depth = max(0, depth - 1)
            case .text:
                break
            }
        }
        try tokenizer.feed(decoder.decode(bytes)) { try take($0) }
        try tokenizer.feed(decoder.decode([UInt8](), final: true)) { try take($0) }
        try tokenizer.finish { try take($0) }
        guard root != nil else { throw ReadError.notOPML("") }
        return found
    }

    /// An OPML 2.0 document of `subscriptions` (grouped as they came, by their first group).
    public static func write(_ subscriptions: [Subscription], title: String = "Juke subscriptions") -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head><title>\(escape(title))</title></head>\n  <body>\n"
        for subscription in subscriptions {
            var line = "    <outline type=\"rss\" text=\"\(escape(subscription.title ?? subscription.feedURL))\""
            if let title = subscription.title { line += " title=\"\(escape(title))\"" }
            line += " xmlUrl=\"\(escape(subscription.feedURL))\""
            if let site = subscription.siteURL { line += " htmlUrl=\"\(escape(site))\"" }
            out += line + "/>\n"
        }
        return out + "  </body>\n</opml>\n"
    }

    static func escape(_ text: String) -> String { Markup.escape(text) }
}
