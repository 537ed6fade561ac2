import Foundation
import JukeCore

/// A web page's feeds, as it announces them for browsers and podcast apps:
/// `<link rel="alternate" type="application/rss+xml" href="…">` (or Atom) in its head, so that
/// subscribing to a show's website finds the show's feed.
public enum FeedDiscovery {
    /// The feed addresses a page names, RSS first, resolved against `base`. Reads at most the
    /// first `limit` bytes (the head comes first; a page's body is not needed).
    public static func feeds(inHTML bytes: some Collection<UInt8>, base: String?, limit: Int = 512 * 1024) -> [String] {
        var tokenizer = XMLTokenizer()
        var found: [(rank: Int, url: String)] = []
        let emit: (XMLToken) -> Void = { token in
            guard case .start(let name, let attributes, _) = token, name.lowercased() == "link" else { return }
            func value(_ key: String) -> String? { attributes.first { $0.name.lowercased() == key }?.value.trimmed }
            let rel = (value("rel") ?? "").lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard rel.contains("alternate"), let href = value("href"), !href.isEmpty else { return }
            let rank: Int
            switch (value("type") ?? "").lowercased() {
            case "application/rss+xml": rank = 0
            case "application/atom+xml": rank = 1
            case "application/rdf+xml", "application/xml", "text/xml": rank = 2
            default: return
            }
            let resolved = base.flatMap { URL(string: $0) }.flatMap { URL(string: href, relativeTo: $0)?.absoluteString } ?? href
            guard WebAddress(resolved) != nil else { return }
            if !found.contains(where: { $0.url == resolved }) { found.append((rank, resolved)) }
        }
        tokenizer.feed(bytes.prefix(limit), emit)
        tokenizer.finish(emit)
        return found.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element.url)
    }
}
