import Foundation
import Testing

@testable import Feeds

/// Feeds as podcasts publish them: RSS with the itunes, Podcasting 2.0 and Podlove
/// namespaces (under whatever prefixes), Atom, RSS 1.0, relative links, every encoding a feed
/// declares, and peers' whole test suite read without a crash.
@Suite(.timeLimit(.minutes(5))) struct FeedReaderTests {
    static let podcast = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:i="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0"
             xmlns:psc="http://podlove.org/simple-chapters" xmlns:content="http://purl.org/rss/1.0/modules/content/" xml:base="https://example.org/show/">
        <channel>
          <title>Readings &amp; Rhymes</title>
          <link>https://example.org/</link>
          <language>en-gb</language>
          <i:author>Juke</i:author>
          <i:image href="cover.jpg"/>
          <i:explicit>no</i:explicit>
          <i:type>serial</i:type>
          <i:new-feed-url>https://feeds.example.org/rhymes.xml</i:new-feed-url>
          <podcast:guid>917393e3-1b1e-5cef-ace4-edaa54e1f810</podcast:guid>
          <podcast:locked owner="me@example.org">yes</podcast:locked>
          <image><url>ignored.png</url><title>Not the feed's title</title></image>
          <item>
            <title>Episode 2: The Raven</title>
            <guid isPermaLink="false">ep-2</guid>
            <pubDate>Tue, 05 Mar 2024 06:00:00 +0100</pubDate>
            <enclosure url="audio/ep2.mp3" length="1234567" type="audio/mpeg"/>
            <i:duration>12:34</i:duration>
            <i:episode>2</i:episode><i:season>1</i:season><i:episodeType>full</i:episodeType>
            <description>Short notes</description>
            <content:encoded><![CDATA[<p>Long notes</p>]]></content:encoded>
            <podcast:chapters url="ep2.json" type="application/json+chapters"/>
            <podcast:transcript url="ep2.vtt" type="text/vtt" language="en" rel="captions"/>
            <podcast:person role="host" href="https://example.org/ann" img="ann.jpg">Ann</podcast:person>
            <psc:chapters version="1.2"><psc:chapter start="00:00:00.000" title="Intro"/><psc:chapter start="1:05.5" title="Poem" href="raven.html"/></psc:chapters>
          </item>
          <item>
            <title>Episode 1</title>
            <guid>https://example.org/ep1</guid>
            <pubDate>Mon, 04 Mar 2024 06:00:00 GMT</pubDate>
            <enclosure url="https://cdn.example.org/ep1.mp3" type="audio/mpeg"/>
            <i:duration>3600</i:duration>
          </item>
        </channel></rss>
        """

    @Test func aPodcastWithEveryNamespaceUnderAnyPrefix() throws {
        let feed = try FeedReader.parse(Array(Self.podcast.utf8))
        let info = feed.info
        #expect(info.title == "Readings & Rhymes" && info.link == "https://example.org/" && info.language == "en-gb")
        #expect(info.author == "Juke" && info.image == "https://example.org/show/cover.jpg" && info.explicit == false && info.type == "serial")
        #expect(info.newFeedURL == "https://feeds.example.org/rhymes.xml" && info.podcastGUID == "917393e3-1b1e-5cef-ace4-edaa54e1f810")
        #expect(info.locked == true)
        #expect(feed.items.count == 2)
        let first = try #require(feed.items.first)
        #expect(first.title == "Episode 2: The Raven" && first.guid == "ep-2" && first.link == nil)
        #expect(first.published.map(FeedDate.iso) == "2024-03-05T05:00:00Z")
        #expect(first.enclosure == .init(url: "https://example.org/show/audio/ep2.mp3", type: "audio/mpeg", length: 1_234_567))
        #expect(first.duration == 754 && first.episode == 2 && first.season == 1 && first.episodeType == "full")
        #expect(first.summary == "<p>Long notes</p>")
        #expect(first.chapters == .init(url: "https://example.org/show/ep2.json", type: "application/json+chapters"))
        #expect(first.transcripts == [.init(url: "https://example.org/show/ep2.vtt", type: "text/vtt", language: "en", rel: "captions")])
        #expect(first.persons == [.init(name: "Ann", role: "host", group: nil, image: "https://example.org/show/ann.jpg", href: "https://example.org/ann")])
        #expect(first.simpleChapters.map(\.start) == [0, 65.5] && first.simpleChapters.map(\.title) == ["Intro", "Poem"])
        #expect(first.simpleChapters.last?.href == "https://example.org/show/raven.html")
        // A permalink guid is the link of an item that has none.
        #expect(feed.items[1].link == "https://example.org/ep1" && feed.items[1].duration == 3600)
    }

    @Test func atomAndRSS1() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="fr" xml:base="http://example.org/blog/">
              <title type="text">Le blog</title><link href="/"/><link rel="self" href="feed.xml"/>
              <entry><id>urn:1</id><title>Premier</title><link rel="alternate" href="p1.html"/>
                <link rel="enclosure" href="p1.mp3" type="audio/mpeg" length="99"/>
                <published>2024-03-05T06:00:00+01:00</published><updated>2024-03-06T00:00:00Z</updated></entry>
            </feed>
            """
        let a = try FeedReader.parse(Array(atom.utf8))
        #expect(a.info.format == .atom && a.info.title == "Le blog" && a.info.link == "http://example.org/" && a.info.language == "fr")
        #expect(a.items.first?.guid == "urn:1" && a.items.first?.link == "http://example.org/blog/p1.html")
        #expect(a.items.first?.enclosure == .init(url: "http://example.org/blog/p1.mp3", type: "audio/mpeg", length: 99))
        #expect(a.items.first?.published.map(FeedDate.iso) == "2024-03-05T05:00:00Z")

        let rdf = """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
              <channel rdf:about="http://example.org/"><title>RDF site</title><link>http://example.org/</link></channel>
              <item rdf:about="http://example.org/1"><title>One</title><link>http://example.org/1</link><dc:date>2004-01-01T00:00Z</dc:date></item>
            </rdf:RDF>
            """
        let r = try FeedReader.parse(Array(rdf.utf8))
        #expect(r.info.format == .rdf && r.info.title == "RDF site" && r.items.map(\.title) == ["One"])
        #expect(r.items.first?.published.map(FeedDate.iso) == "2004-01-01T00:00:00Z")
    }

    @Test func encodingsDeclaredSentOrMarked() throws {
        // Declared ISO-8859-1 but holding Windows-1252's curly quotes, as such feeds do.
        let latin =
            Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><channel><title>".utf8) + [0x93, 0x43, 0x61, 0x66, 0xE9, 0x94]
            + Array("</title></channel></rss>".utf8)
        #expect(try FeedReader.parse(latin).info.title == "“Café”")
        // UTF-16 with its mark.
        let body = try #require("<rss><channel><title>Ünïcode ✓</title></channel></rss>".data(using: .utf16LittleEndian))
        let utf16 = [UInt8](Data([0xFF, 0xFE]) + body)
        #expect(try FeedReader.parse(utf16).info.title == "Ünïcode ✓")
        // The HTTP header's charset wins over a wrong declaration.
        let sent = Array("<?xml version=\"1.0\" encoding=\"utf-8\"?><rss><channel><title>".utf8) + [0xE9, 0x74] + Array("</title></channel></rss>".utf8)
        #expect(try FeedReader.parse(sent, httpCharset: "iso-8859-1").info.title == "ét")
        // UTF-8 declared but Latin-1 bytes in it: read as Windows-1252, not as replacement marks.
        let wrong = Array("<?xml version=\"1.0\" encoding=\"utf-8\"?><rss><channel><title>Caf".utf8) + [0xE9] + Array("</title></channel></rss>".utf8)
        #expect(try FeedReader.parse(wrong).info.title == "Café")
    }

    @Test func peersEncodingFixtures() throws {
        let folder = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/feedparser-tests/encoding"))
        // "中文" in Big5, declared.
        let chinese =
            Array("<?xml version=\"1.0\" encoding=\"big5\"?><rss><channel><title>".utf8) + [0xA4, 0xA4, 0xA4, 0xE5]
            + Array("</title></channel></rss>".utf8)
        #expect(try FeedReader.parse(chinese).info.title == "中文")
        let reader = FeedReader { _ in }
        try reader.read(Array(try Data(contentsOf: folder.appendingPathComponent("big5.xml"))))
        _ = try reader.finish()
        #expect(reader.encoding == "big5-hkscs")
    }

    /// A base that does not lead to the web is not taken: links stay as written, not "javascript:…".
    @Test func onlyWebBasesResolveLinks() throws {
        let rss = #"<rss><channel xml:base="javascript:alert(1)//"><item><link>p1.html</link></item></channel></rss>"#
        #expect(try FeedReader.parse(Array(rss.utf8), base: "https://example.org/feed/").items.first?.link == "https://example.org/feed/p1.html")
        #expect(try FeedReader.parse(Array(rss.utf8)).items.first?.link == "p1.html")
    }

    @Test func notAFeedSaysSo() {
        #expect(throws: FeedError.notAFeed("html")) { try FeedReader.parse(Array("<!doctype html><html><body>Hi</body></html>".utf8)) }
        #expect(throws: FeedError.empty) { try FeedReader.parse(Array("just text".utf8)) }
        #expect(throws: FeedError.empty) { try FeedReader.parse([UInt8]()) }
    }

    /// A feed of any size is read item by item, in pieces: 50 MB here, each item handed on as it closes.
    @Test func aLargeFeedStreams() throws {
        var count = 0
        var maxTitle = 0
        let reader = FeedReader { item in
            count += 1
            maxTitle = max(maxTitle, item.title?.count ?? 0)
        }
        try reader.read(Array("<rss><channel><title>Big</title>".utf8))
        let item = Array(
            "<item><title>Episode</title><guid>x</guid><description>\(String(repeating: "notes ", count: 800))</description><enclosure url=\"http://x/e.mp3\"/></item>"
                .utf8)
        let piece = Array(repeating: item, count: 100).flatMap { $0 }
        for _ in 0..<(50_000_000 / piece.count) { try reader.read(piece) }
        try reader.read(Array("</channel></rss>".utf8))
        let info = try reader.finish()
        #expect(info.title == "Big" && count == 50_000_000 / piece.count * 100 && maxTitle == 7)
    }

    /// Every feed of feedparser's suite, well-formed or not, is read to the end: no trap, no hang.
    @Test func everyPeerFixtureReadsWithoutACrash() throws {
        let root = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/feedparser-tests"))
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL })
            .filter { $0.pathExtension == "xml" || $0.pathExtension == "rdf" }
        #expect(files.count > 1000)
        var feeds = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            // Whole, and again in 7-byte pieces: the same result.
            let whole = try? FeedReader.parse(bytes)
            var items: [FeedItem] = []
            let reader = FeedReader { items.append($0) }
            var info: FeedInfo?
            do {
                var i = 0
                while i < bytes.count {
                    try reader.read(bytes[i..<min(bytes.count, i + 7)])
                    i += 7
                }
                info = try reader.finish()
            } catch {}
            #expect(whole?.info == info && whole?.items == (info == nil ? nil : items), "\(file.lastPathComponent)")
            if whole != nil { feeds += 1 }
        }
        #expect(feeds > 1000, "\(feeds) of \(files.count) read as feeds")
    }
}
