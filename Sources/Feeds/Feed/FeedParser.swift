import Foundation
import JukeCore

/// A feed's structure from its tokens: a state machine fed one token at a time, which hands
/// each item on as soon as it closes, so a feed of any length is read in the memory of one
/// item. It knows RSS 2.0 (and 0.9x), RSS 1.0 (RDF), Atom 1.0 and 0.3, and reads elements
/// by namespace, not by the prefix a feed happened to choose.
///
/// Lenient as feed readers must be: an end tag that closes nothing is ignored, one that skips
/// open elements closes them too, and unknown elements are passed over.
struct FeedParser {
    /// The most text kept for one field (show notes included): a feed cannot make one item large.
    static let maxText = 1 << 16
    /// Elements nested deeper than this are passed over: feeds nest a dozen levels, and a
    /// document nesting thousands would make every end tag a long search.
    static let maxDepth = 256

    private(set) var info = FeedInfo()
    private(set) var sawRoot = false
    private var kind: FeedInfo.Format = .rss
    private var frames: [Frame] = []
    private var scopes: [[String: String]] = []
    /// Names already made canonical under the current namespace scopes (a feed repeats a few
    /// dozen names thousands of times); emptied when a scope opens or closes.
    private var canonicalNames: [String: String] = [:]
    /// The item being read, while `inItem`: stored in place, not as an optional, so reading
    /// one of its fields does not copy it whole.
    private var item = FeedItem()
    private var readingItem = false
    private var itemDepth = -1
    private var itemDates = Dates()
    private var guidIsPermaLink = true
    private var summaryRank = 0
    private var capture: Capture?
    private let documentBase: String?
    /// Atom 0.3 (its XHTML keeps the wrapping <div>, as feedparser's does).
    private var atom03 = false
    private var feedID: String?
    private var itemCreated: Date?

    private struct Frame {
        /// The name as written, for matching its end tag without resolving it again.
        let raw: String
        let name: String
        let base: String?
        let pushedScope: Bool
    }

    private struct Dates {
        var pubDate: Date?
        var published: Date?
        var dc: Date?
        var updated: Date?
    }

    private enum Field {
        case title, link, guid, pubDate, published, dcDate, updated, duration, author, explicit, episode, season, episodeType
        case summary(rank: Int)
        case language, description, type, newFeedURL, podcastGUID, locked, imageURL
        case person(FeedItem.Person)
        case created, feedID
        /// An Atom link whose address is its text rather than its href.
        case atomLink(rel: String, type: String?, length: Int64?)
    }

    private struct Capture {
        let depth: Int
        let field: Field
        let inItem: Bool
        let base: String?
        var mode = ContentMode.text
        var text = ""
    }

    /// How an Atom text construct holds its text (`type` and, in Atom 0.3, `mode`).
    enum ContentMode {
        case text
        /// HTML source, escaped in the XML.
        case html
        /// XHTML elements inline, serialized back to markup.
        case xhtml
        /// Atom 0.3's base64.
        case base64
    }

    init(base: String?) { documentBase = base }

    // MARK: - Tokens in

    mutating func take(_ token: XMLToken, onItem: (FeedItem) throws -> Void) throws {
        switch token {
        case .start(let name, let attributes, let selfClosing):
            let depth = frames.count
            try start(name, attributes, onItem: onItem)
            if selfClosing && frames.count > depth { try close(to: depth, onItem: onItem) }
        case .end(let name):
            // Nearly always the innermost element, written the same way.
            if let last = frames.last, last.raw == name { return try close(to: frames.count - 1, onItem: onItem) }
            let canonical = canonicalName(name)
            guard let depth = frames.lastIndex(where: { $0.name == canonical }) else { return }  // closes nothing
            try close(to: depth, onItem: onItem)
        case .text(let text):
            // Appended in place (a copy of the capture would copy its text at every piece).
            guard let length = capture?.text.utf8.count, length < Self.maxText else { return }
            let piece = capture?.mode == .xhtml ? Self.escaped(text) : text
            if length == 0 {
                capture?.text = piece  // most fields are one piece: no copy
            } else {
                capture?.text += piece
            }
        }
    }

    /// The document ended: what is still open closes.
    mutating func finish(onItem: (FeedItem) throws -> Void) throws {
        if !frames.isEmpty { try close(to: 0, onItem: onItem) }
        // Atom: a feed with no alternate link is known by its id, as feedparser reads it.
        if info.link == nil, let feedID { info.link = feedID }
    }

    // MARK: - Elements

    private mutating func start(_ raw: String, _ attributes: [XMLAttribute], onItem: (FeedItem) throws -> Void) throws {
        guard frames.count < Self.maxDepth else { return }
        var declared: [String: String] = [:]
        for attribute in attributes where attribute.name == "xmlns" || attribute.name.hasPrefix("xmlns:") {
            declared[attribute.name == "xmlns" ? "" : String(attribute.name.dropFirst(6))] = attribute.value
        }
        if !declared.isEmpty {
            scopes.append(declared)
            canonicalNames.removeAll(keepingCapacity: true)
        }
        let name = canonicalName(raw)
        let parent = frames.last
        let depth = frames.count
        // An xml:base is taken only if it leads to the web: "javascript:" or "file:" would make
        // every relative link in the show notes point there.
        let declaredBase = Self.resolve(Self.value(attributes, "xml:base"), against: parent?.base ?? documentBase)
        let webBase = declaredBase.flatMap { WebAddress($0)?.text }
        let base = webBase ?? parent?.base ?? documentBase
        if !sawRoot {
            switch name {
            case "rss", "channel": kind = .rss
            case "rdf:rdf": kind = .rdf
            case "atom:feed", "feed":
                kind = .atom
                atom03 = lookup("").map { $0.lowercased() == "http://purl.org/atom/ns#" } ?? false
            default: throw FeedError.notAFeed(raw)
            }
            sawRoot = true
            info.format = kind
            if kind == .atom, let lang = Self.value(attributes, "xml:lang") { info.language = lang }
        }
        frames.append(Frame(raw: raw, name: name, base: base, pushedScope: !declared.isEmpty))
        if capture != nil {
            // Markup inside a text field (XHTML content, unescaped HTML): kept as markup.
            // Links inside are made absolute against the element's base, as a reader shows them.
            let kept = attributes.filter { !$0.name.hasPrefix("xmlns") && !$0.name.hasPrefix("xml:") }.map { attribute in
                let name = attribute.name.lowercased()
                let value = name == "href" || name == "src" ? Self.resolve(attribute.value, against: base) ?? attribute.value : attribute.value
                return " \(attribute.name)=\"\(Self.escaped(value))\""
            }
            let tag = "<" + localName(raw) + kept.joined() + ">"
            capture?.text += tag
            return
        }
        if !readingItem, (kind == .atom && (name == "atom:entry" || name == "atom:item")) || (kind != .atom && name == "item") {
            item = FeedItem()
            readingItem = true
            itemDepth = depth
            itemDates = Dates()
            itemCreated = nil
            guidIsPermaLink = true
            summaryRank = 0
            return
        }
        if readingItem {
            itemElement(name, attributes, depth: depth, parent: parent?.name ?? "", base: base)
        } else if let parent, parent.name == "channel" || parent.name == "atom:feed" || (kind == .atom && parent.name == "feed") {
            channelElement(name, attributes, depth: depth, base: base)
        } else if name == "url", parent?.name == "image", frames.count >= 3, frames[frames.count - 3].name == "channel" {
            begin(.imageURL, depth: depth, inItem: false, base: base)
        } else if name == "atom:name", parent?.name == "atom:author", frames.count >= 3, frames[frames.count - 3].name == "atom:feed" {
            begin(.author, depth: depth, inItem: false, base: base)
        }
    }

    private mutating func itemElement(_ name: String, _ attributes: [XMLAttribute], depth: Int, parent: String, base: String?) {
        guard depth == itemDepth + 1 else {
            if name == "atom:name" && parent == "atom:author" && depth == itemDepth + 2 {
                begin(.author, depth: depth, inItem: true, base: base)
            } else if name == "psc:chapter" && parent == "psc:chapters", let start = Self.value(attributes, "start").flatMap(FeedDuration.seconds) {
                let chapter = FeedItem.SimpleChapter(
                    start: start, title: Self.value(attributes, "title") ?? "", href: Self.resolve(Self.value(attributes, "href"), against: base),
                    image: Self.resolve(Self.value(attributes, "image"), against: base))
                item.simpleChapters.append(chapter)
            }
            return
        }
        guard let tag = Self.itemNames[name] else { return }
        switch tag {
        case .title:
            if item.title == nil { begin(.title, depth: depth, inItem: true, base: base, mode: Self.contentMode(name, attributes)) }
        case .link:
            // Atom's link written into RSS without its namespace: the address is the href.
            if Self.value(attributes, "href") != nil {
                atomLink(attributes, depth: depth, base: base, inItem: true)
            } else {
                begin(.link, depth: depth, inItem: true, base: base)
            }
        case .id: if item.guid == nil { begin(.guid, depth: depth, inItem: true, base: base) }
        case .updated: begin(.updated, depth: depth, inItem: true, base: base)
        case .published: begin(.published, depth: depth, inItem: true, base: base)
        case .atomLink: atomLink(attributes, depth: depth, base: base, inItem: true)
        case .guid:
            guidIsPermaLink = Self.value(attributes, "isPermaLink")?.lowercased() != "false"
            begin(.guid, depth: depth, inItem: true, base: base)
        case .atomId: begin(.guid, depth: depth, inItem: true, base: base)
        case .pubdate: begin(.pubDate, depth: depth, inItem: true, base: base)
        case .atomPublished: begin(.published, depth: depth, inItem: true, base: base)
        case .dcDate: begin(.dcDate, depth: depth, inItem: true, base: base)
        case .atomUpdated: begin(.updated, depth: depth, inItem: true, base: base)
        case .atomCreated: begin(.created, depth: depth, inItem: true, base: base)
        case .enclosure:
            if item.enclosure == nil, let url = Self.resolve(Self.value(attributes, "url"), against: base) {
                item.enclosure = .init(url: url, type: Self.value(attributes, "type"), length: Self.value(attributes, "length").flatMap { Int64($0) })
            }
        case .itunesDuration: begin(.duration, depth: depth, inItem: true, base: base)
        case .itunesAuthor: if item.author == nil { begin(.author, depth: depth, inItem: true, base: base) }
        case .itunesImage: if let href = Self.resolve(Self.value(attributes, "href"), against: base) { item.image = href }
        case .itunesExplicit: begin(.explicit, depth: depth, inItem: true, base: base)
        case .itunesEpisode: begin(.episode, depth: depth, inItem: true, base: base)
        case .itunesSeason: begin(.season, depth: depth, inItem: true, base: base)
        case .itunesEpisodetype: begin(.episodeType, depth: depth, inItem: true, base: base)
        case .contentEncoded: begin(.summary(rank: 3), depth: depth, inItem: true, base: base)
        case .description: begin(.summary(rank: 2), depth: depth, inItem: true, base: base, mode: Self.contentMode(name, attributes))
        case .itunesSummary:
            begin(.summary(rank: 1), depth: depth, inItem: true, base: base, mode: Self.contentMode(name, attributes))
        case .podcastChapters:
            if let url = Self.resolve(Self.value(attributes, "url"), against: base) { item.chapters = .init(url: url, type: Self.value(attributes, "type")) }
        case .podcastTranscript:
            if let url = Self.resolve(Self.value(attributes, "url"), against: base) {
                item.transcripts.append(
                    .init(url: url, type: Self.value(attributes, "type"), language: Self.value(attributes, "language"), rel: Self.value(attributes, "rel")))
            }
        case .podcastPerson:
            let person = FeedItem.Person(
                name: "", role: Self.value(attributes, "role"), group: Self.value(attributes, "group"),
                image: Self.resolve(Self.value(attributes, "img"), against: base),
                href: Self.resolve(Self.value(attributes, "href"), against: base))
            begin(.person(person), depth: depth, inItem: true, base: base)
        }
    }

    /// The element names this switch handles, hashed once instead of compared one by one.
    private enum ItemTag {
        case title, link, id, updated, published, atomLink, guid, atomId, pubdate, atomPublished, dcDate, atomUpdated, atomCreated, enclosure, itunesDuration,
            itunesAuthor, itunesImage, itunesExplicit, itunesEpisode, itunesSeason, itunesEpisodetype, contentEncoded, description, itunesSummary,
            podcastChapters, podcastTranscript, podcastPerson
    }
    private static let itemNames: [String: ItemTag] = [
        "title": .title,
        "atom:title": .title,
        "dc:title": .title,
        "media:title": .title,
        "link": .link,
        "id": .id,
        "updated": .updated,
        "published": .published,
        "atom:link": .atomLink,
        "guid": .guid,
        "atom:id": .atomId,
        "pubdate": .pubdate,
        "atom:published": .atomPublished,
        "atom:issued": .atomPublished,
        "dcterms:issued": .atomPublished,
        "dcterms:created": .atomPublished,
        "dc:date": .dcDate,
        "atom:updated": .atomUpdated,
        "atom:modified": .atomUpdated,
        "dcterms:modified": .atomUpdated,
        "atom:created": .atomCreated,
        "enclosure": .enclosure,
        "itunes:duration": .itunesDuration,
        "itunes:author": .itunesAuthor,
        "author": .itunesAuthor,
        "dc:creator": .itunesAuthor,
        "itunes:image": .itunesImage,
        "itunes:explicit": .itunesExplicit,
        "itunes:episode": .itunesEpisode,
        "itunes:season": .itunesSeason,
        "itunes:episodetype": .itunesEpisodetype,
        "content:encoded": .contentEncoded,
        "description": .description,
        "atom:content": .description,
        "itunes:summary": .itunesSummary,
        "atom:summary": .itunesSummary,
        "podcast:chapters": .podcastChapters,
        "podcast:transcript": .podcastTranscript,
        "podcast:person": .podcastPerson,
    ]

    private mutating func channelElement(_ name: String, _ attributes: [XMLAttribute], depth: Int, base: String?) {
        guard let tag = Self.channelNames[name] else { return }
        switch tag {
        case .title:
            if info.title == nil { begin(.title, depth: depth, inItem: false, base: base, mode: Self.contentMode(name, attributes)) }
        case .link:
            if Self.value(attributes, "href") != nil {
                atomLink(attributes, depth: depth, base: base, inItem: false)
            } else if info.link == nil {
                begin(.link, depth: depth, inItem: false, base: base)
            }
        case .atomLink: atomLink(attributes, depth: depth, base: base, inItem: false)
        case .atomId: begin(.feedID, depth: depth, inItem: false, base: base)
        case .language: begin(.language, depth: depth, inItem: false, base: base)
        case .description:
            if info.description == nil { begin(.description, depth: depth, inItem: false, base: base, mode: Self.contentMode(name, attributes)) }
        case .itunesAuthor: if info.author == nil { begin(.author, depth: depth, inItem: false, base: base) }
        case .itunesImage: if let href = Self.resolve(Self.value(attributes, "href"), against: base) { info.image = href }
        case .atomLogo: if info.image == nil { begin(.imageURL, depth: depth, inItem: false, base: base) }
        case .itunesExplicit: begin(.explicit, depth: depth, inItem: false, base: base)
        case .itunesType: begin(.type, depth: depth, inItem: false, base: base)
        case .itunesNewFeedUrl: begin(.newFeedURL, depth: depth, inItem: false, base: base)
        case .podcastGuid: begin(.podcastGUID, depth: depth, inItem: false, base: base)
        case .podcastLocked: begin(.locked, depth: depth, inItem: false, base: base)
        }
    }

    /// The element names this switch handles, hashed once instead of compared one by one.
    private enum ChannelTag {
        case title, link, atomLink, atomId, language, description, itunesAuthor, itunesImage, atomLogo, itunesExplicit, itunesType, itunesNewFeedUrl,
            podcastGuid, podcastLocked
    }
    private static let channelNames: [String: ChannelTag] = [
        "title": .title,
        "atom:title": .title,
        "dc:title": .title,
        "link": .link,
        "atom:link": .atomLink,
        "atom:id": .atomId,
        "language": .language,
        "dc:language": .language,
        "description": .description,
        "atom:subtitle": .description,
        "atom:tagline": .description,
        "itunes:summary": .description,
        "itunes:author": .itunesAuthor,
        "managingeditor": .itunesAuthor,
        "dc:creator": .itunesAuthor,
        "itunes:image": .itunesImage,
        "atom:logo": .atomLogo,
        "atom:icon": .atomLogo,
        "itunes:explicit": .itunesExplicit,
        "itunes:type": .itunesType,
        "itunes:new-feed-url": .itunesNewFeedUrl,
        "podcast:guid": .podcastGuid,
        "podcast:locked": .podcastLocked,
    ]

    /// Atom's `<link>`: the page (rel alternate, or no rel) and, in an entry, the enclosure.
    private mutating func atomLink(_ attributes: [XMLAttribute], depth: Int, base: String?, inItem: Bool) {
        let rel = Self.value(attributes, "rel")?.lowercased() ?? "alternate"
        guard let href = Self.resolve(Self.value(attributes, "href"), against: base) else {
            // No href: some feeds put the address in the element's text.
            let field = Field.atomLink(rel: rel, type: Self.value(attributes, "type"), length: Self.value(attributes, "length").flatMap { Int64($0) })
            begin(field, depth: depth, inItem: inItem, base: base)
            return
        }
        placeAtomLink(href, rel: rel, type: Self.value(attributes, "type"), length: Self.value(attributes, "length").flatMap { Int64($0) }, inItem: inItem)
    }

    private mutating func placeAtomLink(_ href: String, rel: String, type: String?, length: Int64?, inItem: Bool) {
        if rel == "alternate" {
            if inItem {
                if item.link == nil { item.link = href }
            } else if info.link == nil {
                info.link = href
            }
        } else if rel == "enclosure", inItem, item.enclosure == nil {
            item.enclosure = .init(url: href, type: type, length: length)
        }
    }

    private mutating func begin(_ field: Field, depth: Int, inItem: Bool, base: String?, mode: ContentMode = .text) {
        capture = Capture(depth: depth, field: field, inItem: inItem, base: base, mode: mode)
    }

    /// An Atom text construct's mode from its attributes (RSS's elements are text).
    static func contentMode(_ name: String, _ attributes: [XMLAttribute]) -> ContentMode {
        guard name.hasPrefix("atom:") else { return .text }
        if value(attributes, "mode")?.lowercased() == "base64" { return .base64 }
        if value(attributes, "mode")?.lowercased() == "escaped" { return .html }
        switch value(attributes, "type")?.lowercased() {
        case "html", "text/html": return .html
        case "xhtml", "application/xhtml+xml": return .xhtml
        case nil, "text", "text/plain": return value(attributes, "mode")?.lowercased() == "xml" ? .xhtml : .text
        case let other?: return other.hasPrefix("text/") ? .text : .base64  // a binary type's text is base64
        }
    }

    /// Text as markup: what XHTML content serializes back.
    static func escaped(_ text: String) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || $0 == "\"" }) else { return text }
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    /// HTML source with its bare ampersands written as entities, as an HTML serializer gives it.
    static func normalizedHTML(_ html: String) -> String {
        guard html.contains("&") else { return html }
        var out = ""
        var rest = html[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            let name = after.prefix { $0.isLetter || $0.isNumber || $0 == "#" }
            if !name.isEmpty, after.dropFirst(name.count).first == ";" { out += "&" } else { out += "&amp;" }
            rest = after
        }
        return out + rest
    }

    // MARK: - Closing

    private mutating func close(to depth: Int, onItem: (FeedItem) throws -> Void) throws {
        while frames.count > depth {
            let index = frames.count - 1
            let frame = frames.removeLast()
            if let open = capture {
                if open.depth == index {
                    capture = nil
                    store(open)
                } else if index > open.depth {
                    let closing = "</" + localName(frame.name) + ">"
                    capture?.text += closing
                }
            }
            if index == itemDepth, readingItem {
                let done = item
                readingItem = false
                item = FeedItem()
                itemDepth = -1
                try onItem(finished(done))
            }
            if frame.pushedScope {
                scopes.removeLast()
                canonicalNames.removeAll(keepingCapacity: true)
            }
        }
    }

    private mutating func store(_ capture: Capture) {
        var text = capture.text.trimmed
        switch capture.mode {
        case .text: break
        case .html: text = Self.normalizedHTML(text)
        case .base64: text = Data(base64Encoded: text, options: .ignoreUnknownCharacters).map { String(decoding: $0, as: UTF8.self) }?.trimmed ?? text
        case .xhtml:
            // Atom 1.0's XHTML comes wrapped in a <div> that is not part of it.
            if !atom03, text.hasPrefix("<div"), text.hasSuffix("</div>"), let open = text.firstIndex(of: ">") {
                text = String(text[text.index(after: open)..<text.index(text.endIndex, offsetBy: -6)]).trimmed
            }
        }
        if capture.inItem {
            guard readingItem else { return }
            switch capture.field {
            case .title: item.title = text
            case .link: if item.link == nil, !text.isEmpty { item.link = Self.resolve(text, against: capture.base) }
            case .guid: item.guid = text
            case .pubDate: itemDates.pubDate = FeedDate.parse(text)
            case .published: itemDates.published = FeedDate.parse(text)
            case .dcDate: itemDates.dc = FeedDate.parse(text)
            case .updated: itemDates.updated = FeedDate.parse(text)
            case .created: itemCreated = FeedDate.parse(text)
            case .atomLink(let rel, let type, let length):
                if let href = Self.resolve(text, against: capture.base) { placeAtomLink(href, rel: rel, type: type, length: length, inItem: true) }
            case .duration: item.duration = FeedDuration.seconds(text)
            case .author: if !text.isEmpty { item.author = text }
            case .explicit: item.explicit = Self.yesNo(text)
            case .episode: item.episode = Int(text)
            case .season: item.season = Int(text)
            case .episodeType: item.episodeType = text.isEmpty ? nil : text.lowercased()
            case .summary(let rank):
                if rank > summaryRank, !text.isEmpty {
                    summaryRank = rank
                    item.summary = text
                }
            case .person(var person):
                person.name = text
                if !text.isEmpty { item.persons.append(person) }
            default: break
            }
        } else {
            switch capture.field {
            case .title: info.title = text
            case .link: if !text.isEmpty { info.link = Self.resolve(text, against: capture.base) }
            case .language: if !text.isEmpty { info.language = text }
            case .description: info.description = text
            case .author: if !text.isEmpty { info.author = text }
            case .imageURL: if info.image == nil { info.image = Self.resolve(text, against: capture.base) }
            case .explicit: info.explicit = Self.yesNo(text)
            case .type: info.type = text.isEmpty ? nil : text.lowercased()
            case .newFeedURL: if !text.isEmpty { info.newFeedURL = Self.resolve(text, against: capture.base) }
            case .podcastGUID: info.podcastGUID = text.isEmpty ? nil : text
            case .locked: info.locked = Self.yesNo(text)
            case .feedID: if !text.isEmpty { feedID = text }
            case .atomLink(let rel, let type, let length):
                if let href = Self.resolve(text, against: capture.base) { placeAtomLink(href, rel: rel, type: type, length: length, inItem: false) }
            default: break
            }
        }
    }

    private func finished(_ done: FeedItem) -> FeedItem {
        var result = done
        // RSS: a guid that is a permalink (unless it says otherwise) is the item's link when
        // it has no other, as RSS 2.0 says and feedparser does.
        if result.link == nil, guidIsPermaLink, let guid = result.guid, !guid.isEmpty {
            result.link = guid
        }
        result.published = itemDates.pubDate ?? itemDates.published ?? itemDates.dc ?? itemDates.updated ?? itemCreated
        return result
    }

    // MARK: - Names and values

    /// A name as "prefix:local" with Juke's prefix for its namespace ("" for RSS's own).
    private mutating func canonicalName(_ raw: String) -> String {
        if let known = canonicalNames[raw] { return known }
        let name = resolveName(raw)
        // Not before the root: Atom's unprefixed names change meaning once the root is known.
        if sawRoot { canonicalNames[raw] = name }
        return name
    }

    /// Lower case throughout: feeds write `<TiTlE>` and `<PUBDATE>`, and readers take them.
    private func resolveName(_ raw: String) -> String { resolveNameAsWritten(raw).lowercased() }

    private func resolveNameAsWritten(_ raw: String) -> String {
        let prefix: String
        let local: Substring
        if let colon = raw.firstIndex(of: ":") {
            prefix = String(raw[..<colon])
            local = raw[raw.index(after: colon)...]
        } else {
            prefix = ""
            local = raw[...]
        }
        if prefix == "xml" { return raw }
        if let uri = lookup(prefix) {
            if let known = FeedNamespaces.prefix(for: uri) { return known.isEmpty ? String(local) : known + ":" + local }
            // An unknown default namespace on an Atom root ("Atom 0.3 with a new URI"): still Atom.
            if prefix.isEmpty { return kind == .atom && sawRoot ? "atom:" + local : String(local) }
            return prefix.lowercased() + ":" + local
        }
        if prefix.isEmpty { return kind == .atom && sawRoot ? "atom:" + local : String(local) }
        // An undeclared prefix (a common slip): the usual one is taken at its word.
        return prefix.lowercased() + ":" + local
    }

    private func lookup(_ prefix: String) -> String? {
        for scope in scopes.reversed() { if let uri = scope[prefix] { return uri } }
        return nil
    }

    private func localName(_ name: String) -> Substring {
        name.firstIndex(of: ":").map { name[name.index(after: $0)...] } ?? name[...]
    }

    private static func value(_ attributes: [XMLAttribute], _ name: String) -> String? {
        for attribute in attributes where attribute.name == name {
            let trimmed = attribute.value.trimmed
            return trimmed.isEmpty ? nil : trimmed
        }
        return nil
    }

    /// `link` made absolute against `base` when it is relative and a base is known.
    private static func resolve(_ link: String?, against base: String?) -> String? {
        guard let link = link?.trimmed, !link.isEmpty else { return nil }
        guard let base, !Self.isAbsolute(link) else { return link }
        guard let baseURL = URL(string: base), let url = URL(string: link, relativeTo: baseURL) else { return link }
        return url.absoluteString
    }

    private static func isAbsolute(_ link: String) -> Bool {
        guard let colon = link.firstIndex(of: ":") else { return false }
        let scheme = link[..<colon]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." } && scheme.first?.isLetter == true
    }

    static func yesNo(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "explicit": true
        case "no", "false", "clean": false
        default: nil
        }
    }
}
