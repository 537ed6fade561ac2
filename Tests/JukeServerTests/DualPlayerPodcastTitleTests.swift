import DualPlayerServer
import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeTestSupport
import NIOCore
import Testing

@testable import JukeServer

/// A show is one row for every account that follows its feed, so what it is called comes from
/// the feed, cleaned of control characters and bidirectional overrides: never from one
/// account's OPML file, whose words would otherwise show to everyone who subscribes.
@Suite(.timeLimit(.minutes(5))) struct DualPlayerPodcastTitleTests {
    @Test(arguments: TestBackend.available)
    func aShowsTitleIsItsFeedsCleanedNeverAnotherAccountsOPML(backend: TestBackend) async throws {
        let host = FakePodcastHost()
        host.title.withLock { $0 = "The\u{202E} Fake\n\t Show\u{7}\u{2066}" }
        try await host.run { base in
            try await TestApp.run(
                backend,
                configure: {
                    $0.groups[DualPlayerSettings.self].webAllowPrivateNetworks = true; $0.groups[DualPlayerSettings.self].podcastSearchURL = nil
                }
            ) { _, client in
                let ann = try await client.register("ann")
                let bob = try await client.register("bob")
                let feed = base.absoluteString + "/feed.xml"
                let opml = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <opml version="2.0"><head><title>Ann's shows</title></head><body>
                    <outline type="rss" text="Ann's secret name &#x202E;gpj.exe" title="Ann's secret name &#x202E;gpj.exe" xmlUrl="\(feed)" htmlUrl="https://ann.example/"/>
                    </body></opml>
                    """
                let imported = try await client.execute(
                    uri: "/api/v1/dual/podcasts/opml", method: .post,
                    headers: [.authorization: "Bearer \(ann)", .contentType: "application/octet-stream"], body: ByteBuffer(string: opml))
                #expect(imported.status == .ok, "\(String(buffer: imported.body))")

                // Bob follows the same feed: the same show, and none of Ann's words on it.
                let body = String(decoding: try JSONSerialization.data(withJSONObject: ["url": feed], options: [.withoutEscapingSlashes]), as: UTF8.self)
                let bobs = try await client.json(.post, "/api/v1/dual/podcasts", token: bob, body: body)
                #expect(bobs.status == .created || bobs.status == .ok, "\(bobs.json)")
                let id = try #require(bobs.json["id"] as? String)
                for shown in [bobs.json, try await client.json(.get, "/api/v1/dual/podcasts/\(id)", token: ann).json] {
                    let title = shown["title"] as? String ?? ""
                    #expect(!title.contains("secret") && !title.contains("\u{202E}"), "\(title)")
                    #expect(shown["link"] as? String != "https://ann.example/")
                }

                // Once the feed is read, the title is the feed's, cleaned to one plain line.
                let refreshed = try await client.json(.post, "/api/v1/dual/podcasts/\(id)/refresh", token: bob)
                #expect(refreshed.status == .ok || refreshed.status == .tooManyRequests, "\(refreshed.json)")
                let show = try await client.json(.get, "/api/v1/dual/podcasts/\(id)", token: bob)
                #expect(show.json["title"] as? String == "The Fake Show", "\(show.json)")
            }
        }
    }
}
