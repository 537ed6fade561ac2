/// The namespaces a feed reader knows, by the prefix Juke names them with whatever prefix
/// the feed declared ("itunes:duration" even where a feed wrote `<i:duration>`). The RSS
/// namespaces have no prefix, so RSS 1.0's `<item>` reads as RSS 2.0's.
enum FeedNamespaces {
    static func prefix(for uri: String) -> String? {
        let key = uri.lowercased().trimmingCharacters(in: .whitespaces)
        if let known = byURI[key] { return known }
        if key.hasSuffix("/") { return byURI[String(key.dropLast())] }
        return byURI[key + "/"]
    }

    private static let byURI: [String: String] = [
        "http://www.w3.org/2005/atom": "atom",
        "http://purl.org/atom/ns#": "atom",
        "http://purl.org/rss/1.0/": "",
        "http://my.netscape.com/rdf/simple/0.9/": "",
        "http://backend.userland.com/rss2": "",
        "http://blogs.law.harvard.edu/tech/rss": "",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#": "rdf",
        "http://www.itunes.com/dtds/podcast-1.0.dtd": "itunes",
        "http://www.itunes.com/dtds/podcast-1.0.dtd/": "itunes",
        "https://podcastindex.org/namespace/1.0": "podcast",
        "http://podcastindex.org/namespace/1.0": "podcast",
        "https://github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md": "podcast",
        "http://podlove.org/simple-chapters": "psc",
        "http://purl.org/dc/elements/1.1/": "dc",
        "http://purl.org/dc/terms/": "dcterms",
        "http://purl.org/rss/1.0/modules/content/": "content",
        "http://search.yahoo.com/mrss/": "media",
        "http://www.w3.org/1999/xhtml": "xhtml",
        "http://www.w3.org/xml/1998/namespace": "xml",
    ]
}
