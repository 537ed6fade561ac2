import Testing

@testable import Feeds

/// Subscriptions moved between podcast apps: OPML as apps export it (grouped, with entities,
/// odd case), read leniently, and written so that reading it back gives the same list.
@Suite(.timeLimit(.minutes(5))) struct OPMLTests {
    static let exported = """
        <?xml version="1.0" encoding="utf-8"?>
        <opml version="1.0"><head><title>Pocket Casts Feeds</title></head><body>
          <outline text="News">
            <outline type="rss" text="Morning &amp; Evening" xmlUrl="https://example.org/a.xml" htmlUrl="https://example.org/"/>
            <outline text="World"><outline TYPE="RSS" TEXT="Wide" XMLURL="https://example.org/b.xml"></outline></outline>
          </outline>
          <outline type="rss" title="Again" xmlUrl="https://example.org/a.xml"/>
          <outline type="rss" text="Plain" url="https://example.org/c.xml"/>
          <outline text="A folder with nothing"/>
        </body></opml>
        """

    @Test func everyFeedOnceWithItsGroups() throws {
        let subscriptions = try OPML.read(Array(Self.exported.utf8))
        #expect(subscriptions.map(\.feedURL) == ["https://example.org/a.xml", "https://example.org/b.xml", "https://example.org/c.xml"])
        #expect(subscriptions[0] == .init(feedURL: "https://example.org/a.xml", title: "Morning & Evening", siteURL: "https://example.org/", groups: ["News"]))
        #expect(subscriptions[1].groups == ["News", "World"] && subscriptions[1].title == "Wide")
        #expect(subscriptions[2].groups.isEmpty)
    }

    @Test func writtenAndReadBack() throws {
        let list: [OPML.Subscription] = [
            .init(feedURL: "https://example.org/a.xml?x=1&y=<2>", title: "Tom's \"Show\"", siteURL: "https://example.org/"),
            .init(feedURL: "https://example.org/b.xml"),
        ]
        let text = OPML.write(list)
        #expect(text.contains("&amp;y=&lt;2&gt;") && text.contains("Tom&#39;s &quot;Show&quot;"))
        #expect(try OPML.read(Array(text.utf8)) == [list[0], .init(feedURL: "https://example.org/b.xml", title: "https://example.org/b.xml")])
    }

    @Test func notOPMLSaysSo() {
        #expect(throws: OPML.ReadError.notOPML("rss")) { try OPML.read(Array("<rss><channel/></rss>".utf8)) }
        #expect(throws: OPML.ReadError.notOPML("")) { try OPML.read(Array("nothing".utf8)) }
    }
}

/// A show's web page names its feed for podcast apps.
@Suite(.timeLimit(.minutes(5))) struct FeedDiscoveryTests {
    @Test func aPageNamesItsFeedsRSSFirst() {
        let page = """
            <!doctype html><html><head><meta charset=utf-8><title>Show</title>
            <link rel="stylesheet" href="/s.css">
            <link rel="alternate" type="application/atom+xml" href="/atom.xml">
            <LINK REL="Alternate" TYPE="application/rss+xml" HREF="feed.rss">
            <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
            </head><body><p>Hello & welcome</p></body></html>
            """
        #expect(
            FeedDiscovery.feeds(inHTML: Array(page.utf8), base: "https://show.example/podcast/") == [
                "https://show.example/podcast/feed.rss", "https://show.example/atom.xml",
            ])
        #expect(FeedDiscovery.feeds(inHTML: Array("<html><body>no feed</body></html>".utf8), base: nil).isEmpty)
    }

    /// Thousands of subscriptions inside thousands of nested folders copied every folder into
    /// every subscription: each keeps the outer 16 only.
    @Test func deeplyNestedFoldersAreKeptToSixteen() throws {
        let folders = (0..<5_000).map { "<outline text=\"f\($0)\">" }.joined()
        let shows = (0..<1_000).map { "<outline xmlUrl=\"https://example.org/\($0).xml\"/>" }.joined()
        let list = try OPML.read(Array(("<opml><body>" + folders + shows).utf8))
        #expect(list.count == 1_000)
        #expect(list.allSatisfy { $0.groups == (0..<OPML.maxGroups).map { "f\($0)" } })
    }

    @Test func moreShowsThanTheLimitAreRefused() throws {
        let shows = (0..<11).map { "<outline xmlUrl=\"https://example.org/\($0).xml\"/>" }.joined()
        #expect(throws: OPML.ReadError.tooMany(10)) { try OPML.read(Array(("<opml><body>" + shows).utf8), limit: 10) }
        #expect(try OPML.read(Array(("<opml><body>" + shows).utf8), limit: 11).count == 11)
    }
}
