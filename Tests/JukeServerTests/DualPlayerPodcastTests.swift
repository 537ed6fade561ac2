import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import NIOCore
import Synchronization
import Testing

@testable import DualPlayer
@testable import DualPlayerServer
@testable import JukePlatform
@testable import JukeServer

/// Podcasts over HTTP, against a local podcast host: subscribing (by feed, by a show's page,
/// through redirects and moves), episodes with chapters, transcripts and audio passed on with
/// Range, refreshes that ask with the ETag and never hammer, played marks and positions per
/// account, each show's settings, and what failing hosts and damaged feeds do (a clear error,
/// nothing lost).
@Suite(.timeLimit(.minutes(5))) struct DualPlayerPodcastTests {
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var wall: WallClock { WallClock { self.now.withLock { $0 } } }
        func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    static func subscribe(_ client: any TestClientProtocol, _ token: String, _ url: String) async throws -> (
        status: HTTPResponse.Status, json: [String: Any]
    ) {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["url": url], options: [.withoutEscapingSlashes]), as: UTF8.self)
        let reply = try await client.json(.post, "/api/v1/dual/podcasts", token: token, body: body)
        return (reply.status, reply.json)
    }

    @Test(arguments: TestBackend.available)
    func subscribeListenRefreshAndUnsubscribe(backend: TestBackend) async throws {
        let host = FakePodcastHost()
        let clock = Clock()
        try await host.run { base in
            try await TestApp.run(
                backend, clock: clock.wall,
                configure: {
                    $0.groups[DualPlayerSettings.self].webAllowPrivateNetworks = true; $0.groups[DualPlayerSettings.self].podcastSearchURL = nil
                }
            ) { _, client in
                let ann = try await client.register("ann")
                let bob = try await client.register("bob")
                let feed = base.absoluteString + "/feed.xml"
                let first = try await Self.subscribe(client, ann, feed)
                #expect(first.status == .created, "\(first.json)")
                #expect(first.json["title"] as? String == "The Fake Show" && first.json["episodes"] as? Int == 2 && first.json["unplayed"] as? Int == 2)
                #expect(first.json["author"] as? String == "Juke's tests" && first.json["image_url"] as? String == base.absoluteString + "/image.png")
                let id = try #require(first.json["id"] as? String)
                #expect(try await Self.subscribe(client, ann, feed).status == .ok, "subscribing twice is no error")
                let shared = try await Self.subscribe(client, bob, " \(feed) ")
                #expect(shared.status == .created && shared.json["id"] as? String == id, "one show for both accounts")
                #expect(host.requests(to: "/feed.xml").count == 1, "a show someone subscribes to is not fetched again")

                // Episodes, newest first, with what the feed says of them.
                let page = try await client.json(.get, "/api/v1/dual/podcasts/\(id)/episodes", token: ann)
                let episodes = try #require(page.json["items"] as? [[String: Any]])
                #expect(episodes.compactMap { $0["title"] as? String } == ["Episode 2: the fake & its tests", "Episode 1: the fake & its tests"])
                #expect(episodes.first?["duration"] as? Double == 752 && episodes.first?["episode"] as? Int == 2)
                #expect(episodes.allSatisfy { $0["chapters"] as? Bool == true && $0["transcript"] as? Bool == true && $0["played"] as? Bool == false })
                let episode = try #require(episodes.last?["id"] as? String)
                #expect(episodes.last?["audio_url"] as? String == "/api/v1/dual/episodes/\(episode)/audio")

                // Chapters and the transcript, read from the host.
                let chapters = try await client.json(.get, "/api/v1/dual/episodes/\(episode)/chapters", token: ann)
                #expect(chapters.json["source"] as? String == "podcast")
                let list = try #require(chapters.json["chapters"] as? [[String: Any]])
                #expect(list.compactMap { $0["title"] as? String } == ["Hello", "Goodbye"])
                #expect(list.first?["end"] as? Double == 361.5 && list.last?["end"] as? Double == 751, "each ends where the next starts, the last at the end")
                let transcript = try await client.json(.get, "/api/v1/dual/episodes/\(episode)/transcript", token: ann)
                let cues = try #require(transcript.json["cues"] as? [[String: Any]])
                #expect(cues.compactMap { $0["text"] as? String } == ["Hello and welcome.", "This is episode 1."])
                #expect(cues.last?["speaker"] as? String == "Host" && cues.last?["end"] as? Double == 9.5)

                // The audio, passed on from the host with the player's Range.
                let audio = try await client.execute(
                    uri: "/api/v1/dual/episodes/\(episode)/audio", method: .get, headers: [.authorization: "Bearer \(ann)", .range: "bytes=1000-"])
                #expect(audio.status == .partialContent && audio.headers[.contentType] == "audio/mpeg")
                #expect(audio.headers[.contentRange] == "bytes 1000-\(FakePodcastHost.episodeSize - 1)/\(FakePodcastHost.episodeSize)")
                #expect(Array(audio.body.readableBytesView) == Array(FakePodcastHost.episodeBytes(1)[1000...]))
                #expect(host.requests(to: "/episodes/1.mp3").last?["range"] == "bytes=1000-")
                let stranger = try await client.register("cyd")
                #expect(try await client.json(.get, "/api/v1/dual/episodes/\(episode)/audio", token: stranger).status == .notFound, "only subscribers")
                #expect(try await client.json(.get, "/api/v1/dual/episodes/\(episode)/chapters", token: stranger).status == .notFound)

                // Refresh now: not moments after the last fetch; then with the ETag (304).
                let soon = try await client.json(.post, "/api/v1/dual/podcasts/\(id)/refresh", token: ann)
                #expect(soon.status == .tooManyRequests && soon.headers[.retryAfter] != nil)
                clock.advance(11)
                #expect(try await client.json(.post, "/api/v1/dual/podcasts/\(id)/refresh", token: ann).status == .ok)
                #expect(host.requests(to: "/feed.xml").last?["if-none-match"] == "\"v2\"", "asked with the ETag")
                host.publish()
                clock.advance(11)
                let fresh = try await client.json(.post, "/api/v1/dual/podcasts/\(id)/refresh", token: bob)
                #expect(fresh.json["episodes"] as? Int == 3 && fresh.json["failures"] as? Int == 0, "\(fresh.json)")

                // Played marks: each account's own, the newest winning.
                let played = #"{"played":true,"updated_at":2000}"#
                #expect(try await client.json(.put, "/api/v1/dual/episodes/\(episode)/played", token: ann, body: played).json["played"] as? Bool == true)
                let older = try await client.json(.put, "/api/v1/dual/episodes/\(episode)/played", token: ann, body: #"{"played":false,"updated_at":1000}"#)
                #expect(older.json["played"] as? Bool == true, "an older mark does not undo a newer one")
                let shows = try await client.json(.get, "/api/v1/dual/podcasts", token: ann)
                #expect((shows.json["items"] as? [[String: Any]])?.first?["unplayed"] as? Int == 2)
                let bobs = try await client.json(.get, "/api/v1/dual/podcasts", token: bob)
                #expect((bobs.json["items"] as? [[String: Any]])?.first?["unplayed"] as? Int == 3)
                // Positions are the speech player's, keyed by episode.
                let position = #"{"positions":[{"item":"episode:\#(episode)","seconds":42.5,"updated_at":3000}]}"#
                #expect(try await client.json(.put, "/api/v1/dual/positions", token: ann, body: position).status == .ok)
                let withPosition = try await client.json(.get, "/api/v1/dual/podcasts/\(id)/episodes", token: ann)
                let mine = (withPosition.json["items"] as? [[String: Any]])?.first { $0["id"] as? String == episode }
                #expect(mine?["position"] as? Double == 42.5 && mine?["played"] as? Bool == true)

                // The show's own speed and skip-silence.
                let settings = try await client.json(.put, "/api/v1/dual/podcasts/\(id)/settings", token: ann, body: #"{"speed":1.5,"skip_silence":true}"#)
                #expect(settings.status == .ok && settings.json["speed"] as? Double == 1.5)
                #expect(
                    try await client.json(.put, "/api/v1/dual/podcasts/\(id)/settings", token: ann, body: #"{"speed":5,"skip_silence":true}"#).status
                        == .badRequest)
                let annShow = try await client.json(.get, "/api/v1/dual/podcasts/\(id)", token: ann)
                #expect((annShow.json["settings"] as? [String: Any])?["skip_silence"] as? Bool == true)
                let bobShow = try await client.json(.get, "/api/v1/dual/podcasts/\(id)", token: bob)
                #expect((bobShow.json["settings"] as? [String: Any])?["skip_silence"] as? Bool == false, "settings are each subscriber's")

                // OPML: exported with the show, imported by another account (a bad entry skipped).
                let exported = try await client.execute(uri: "/api/v1/dual/podcasts/opml", method: .get, headers: [.authorization: "Bearer \(ann)"])
                #expect(exported.status == .ok && exported.headers[.contentType]?.hasPrefix("text/x-opml") == true)
                let opml = String(buffer: exported.body)
                #expect(opml.contains("xmlUrl=\"\(feed)\"") && opml.contains("The Fake Show"), "\(opml)")
                let dee = try await client.register("dee")
                let withBad = opml.replacingOccurrences(of: "</body>", with: "<outline text=\"Bad\" xmlUrl=\"ftp://nowhere/feed\"/></body>")
                let imported = try await client.execute(
                    uri: "/api/v1/dual/podcasts/opml", method: .post,
                    headers: [.authorization: "Bearer \(dee)", .contentType: "application/octet-stream"], body: ByteBuffer(string: withBad))
                let result = try JSONSerialization.jsonObject(with: Data(buffer: imported.body)) as? [String: Any]
                #expect(
                    imported.status == .ok && result?["added"] as? Int == 1 && (result?["skipped"] as? [String]) == ["ftp://nowhere/feed"], "\(result ?? [:])")
                let again = try await client.execute(
                    uri: "/api/v1/dual/podcasts/opml", method: .post,
                    headers: [.authorization: "Bearer \(dee)", .contentType: "application/octet-stream"], body: ByteBuffer(string: withBad))
                #expect((try JSONSerialization.jsonObject(with: Data(buffer: again.body)) as? [String: Any])?["already"] as? Int == 1)
                let notOPML = try await client.execute(
                    uri: "/api/v1/dual/podcasts/opml", method: .post,
                    headers: [.authorization: "Bearer \(dee)", .contentType: "application/octet-stream"], body: ByteBuffer(string: "<rss/>"))
                #expect(notOPML.status == .unprocessableContent)
                #expect(try await client.json(.delete, "/api/v1/dual/podcasts/\(id)", token: dee).status == .noContent)

                // Unsubscribing: the show stays while someone subscribes.
                #expect(try await client.json(.delete, "/api/v1/dual/podcasts/\(id)", token: ann).status == .noContent)
                #expect(try await client.json(.delete, "/api/v1/dual/podcasts/\(id)", token: ann).status == .notFound)
                #expect(try await client.json(.get, "/api/v1/dual/podcasts/\(id)/episodes", token: bob).status == .ok)
                #expect(try await client.json(.delete, "/api/v1/dual/podcasts/\(id)", token: bob).status == .noContent)
                #expect(try await Self.subscribe(client, ann, feed).json["id"] as? String != id, "the last subscriber gone, the show went")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func failingHostsAndDamagedFeedsLoseNothing(backend: TestBackend) async throws {
        let host = FakePodcastHost()
        let clock = Clock()
        try await host.run { base in
            try await TestApp.run(
                backend, clock: clock.wall,
                configure: {
                    $0.groups[DualPlayerSettings.self].webAllowPrivateNetworks = true
                    $0.groups[DualPlayerSettings.self].podcastSearchURL = nil
                    $0.tokenLifetime = 30 * 86_400  // the clock moves hours on
                }
            ) { app, client in
                let ann = try await client.register("ann")
                let root = base.absoluteString
                func refused(_ path: String) async throws -> (HTTPResponse.Status, String?) {
                    let reply = try await Self.subscribe(client, ann, root + path)
                    return (reply.status, reply.json["error"] as? String)
                }
                #expect(try await refused("/gone.xml") == (.unprocessableContent, "feed_gone"))
                #expect(try await refused("/missing.xml") == (.badGateway, "podcast_host_unavailable"))
                #expect(try await refused("/limited.xml") == (.badGateway, "podcast_host_unavailable"))
                #expect(try await refused("/broken.xml") == (.unprocessableContent, "not_a_feed"))
                #expect(try await refused("/image.png") == (.unprocessableContent, "not_a_feed"))
                #expect(try await Self.subscribe(client, ann, "ftp://example.com/feed").status == .badRequest)
                #expect(try await Self.subscribe(client, ann, "javascript:alert(1)").status == .badRequest)
                #expect((try await client.json(.get, "/api/v1/dual/podcasts", token: ann).json["items"] as? [Any])?.isEmpty == true, "nothing stored")

                // A show's page finds its feed; a permanent redirect and new-feed-url move it.
                let page = try await Self.subscribe(client, ann, root + "/page.html")
                #expect(page.status == .created && page.json["feed_url"] as? String == root + "/feed.xml", "\(page.json)")
                let moved = try await Self.subscribe(client, ann, root + "/moved.xml")
                #expect(moved.json["id"] as? String == page.json["id"] as? String, "a 301 leads to the show already there")
                let id = try #require(page.json["id"] as? String)

                // The host fails, then sends a damaged feed: the episodes stay, the show says why.
                host.failWith.withLock { $0 = 503 }
                clock.advance(11)
                let failed = try await client.json(.post, "/api/v1/dual/podcasts/\(id)/refresh", token: ann)
                #expect(failed.status == .ok && failed.json["failures"] as? Int == 1 && failed.json["episodes"] as? Int == 2, "\(failed.json)")
                #expect((failed.json["last_error"] as? String)?.contains("503") == true)
                host.failWith.withLock { $0 = nil }
                host.damaged.withLock { $0 = true }
                clock.advance(11)
                let damaged = try await client.json(.post, "/api/v1/dual/podcasts/\(id)/refresh", token: ann)
                #expect(damaged.json["failures"] as? Int == 2 && damaged.json["episodes"] as? Int == 2, "\(damaged.json)")
                // Not hammered: the refresher leaves a failing feed alone until its backoff ends.
                let before = host.requests(to: "/feed.xml").count
                clock.advance(1800)
                _ = try await app.services.dualPlayerApp.podcasts.refreshDue()
                #expect(host.requests(to: "/feed.xml").count == before, "two failures: wait two hours, not thirty minutes")
                host.damaged.withLock { $0 = false }
                clock.advance(3 * 3600)
                #expect(try await app.services.dualPlayerApp.podcasts.refreshDue() == 1)
                let healed = try await client.json(.get, "/api/v1/dual/podcasts/\(id)", token: ann)
                #expect(healed.json["failures"] as? Int == 0 && healed.json["last_error"] == nil, "\(healed.json)")

                // Gone (410): no more scheduled fetches.
                host.failWith.withLock { $0 = 410 }
                clock.advance(11)
                let gone = try await client.json(.post, "/api/v1/dual/podcasts/\(id)/refresh", token: ann)
                #expect(gone.json["gone"] as? Bool == true && gone.json["episodes"] as? Int == 2, "\(gone.json)")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func privateNetworksAreRefusedByDefault(backend: TestBackend) async throws {
        try await FakePodcastHost().run { base in
            try await TestApp.run(backend) { _, client in
                let ann = try await client.register("ann")
                let reply = try await Self.subscribe(client, ann, base.absoluteString + "/feed.xml")
                #expect(reply.status == .unprocessableContent && reply.json["error"] as? String == "private_network", "\(reply.json)")
            }
        }
    }

    /// The episode as the list shows it, once `ready` says it is what the test waits for.
    static func episode(
        _ client: any TestClientProtocol, _ token: String, show: String, number: Int, until ready: ([String: Any]) -> Bool = { _ in true }
    ) async throws -> [String: Any] {
        // Up to two minutes: a busy machine is slow, and a failure still says what was seen.
        for _ in 0..<2400 {
            let page = try await client.json(.get, "/api/v1/dual/podcasts/\(show)/episodes", token: token)
            let found = (page.json["items"] as? [[String: Any]])?.first { $0["episode"] as? Int == number }
            if let found, ready(found) { return found }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("episode \(number) never reached the state waited for")
        return [:]
    }

    static func download(_ episode: [String: Any]) -> [String: Any]? { episode["download"] as? [String: Any] }

    @Test(arguments: TestBackend.available)
    func downloadsResumeAndTheStorageLimitCleansUpPlayedEpisodes(backend: TestBackend) async throws {
        let host = FakePodcastHost()
        try await host.run { base in
            try await TestApp.run(
                backend,
                configure: {
                    $0.groups[DualPlayerSettings.self].webAllowPrivateNetworks = true
                    $0.groups[DualPlayerSettings.self].podcastSearchURL = nil
                    $0.groups[DualPlayerSettings.self].podcastStorageLimit = 450_000  // two episodes of 200 kB, not three
                }
            ) { app, client in
                let ann = try await client.register("ann")
                let show = try #require(try await Self.subscribe(client, ann, base.absoluteString + "/feed.xml").json["id"] as? String)
                let one = try #require(try await Self.episode(client, ann, show: show, number: 1)["id"] as? String)

                // A download cut short stops with why, and carries on from its last byte on disk.
                // (The host sends 50 kB and breaks the connection; AsyncHTTPClient drops what it
                // had read but not yet handed on when a connection breaks, so up to that is kept.)
                host.dropAfter.withLock { $0 = 50_000 }
                #expect(try await client.json(.post, "/api/v1/dual/episodes/\(one)/download", token: ann).status == .accepted)
                let stopped = try await Self.episode(client, ann, show: show, number: 1) { Self.download($0)?["status"] as? String == "failed" }
                let kept = try #require(Self.download(stopped)?["bytes"] as? Int, "\(stopped)")
                #expect(kept <= 50_000, "\(stopped)")
                #expect(try await client.json(.post, "/api/v1/dual/episodes/\(one)/download", token: ann).status == .accepted)
                let ready = try await Self.episode(client, ann, show: show, number: 1) { Self.download($0)?["status"] as? String == "ready" }
                #expect(Self.download(ready)?["bytes"] as? Int == FakePodcastHost.episodeSize)
                #expect(host.requests(to: "/episodes/1.mp3").last?["range"] == (kept > 0 ? "bytes=\(kept)-" : nil), "asked for the rest only")
                #expect(try await client.json(.post, "/api/v1/dual/episodes/\(one)/download", token: ann).status == .ok, "already there")
                // It plays from the server's copy now, with Range.
                let asked = host.requests(to: "/episodes/1.mp3").count
                let audio = try await client.execute(
                    uri: "/api/v1/dual/episodes/\(one)/audio", method: .get, headers: [.authorization: "Bearer \(ann)", .range: "bytes=0-99"])
                #expect(audio.status == .partialContent && Array(audio.body.readableBytesView) == Array(FakePodcastHost.episodeBytes(1)[0..<100]))
                #expect(host.requests(to: "/episodes/1.mp3").count == asked, "not fetched from the host again")

                // The limit: a third unplayed episode does not fit; once one is played, it goes.
                let two = try #require(try await Self.episode(client, ann, show: show, number: 2)["id"] as? String)
                #expect(try await client.json(.post, "/api/v1/dual/episodes/\(two)/download", token: ann).status == .accepted)
                _ = try await Self.episode(client, ann, show: show, number: 2) { Self.download($0)?["status"] as? String == "ready" }
                host.publish()
                let podcasts = app.services.dualPlayerApp.podcasts
                let showID = try #require(PodcastID(show))
                let stored = try #require(try await podcasts.store.podcast(showID))
                _ = try await podcasts.refresh(stored)
                let three = try #require(try await Self.episode(client, ann, show: show, number: 3)["id"] as? String)
                let full = try await client.json(.post, "/api/v1/dual/episodes/\(three)/download", token: ann)
                #expect(full.status == .conflict && (full.json["message"] as? String)?.contains("unplayed") == true, "\(full.json)")
                #expect(try await client.json(.put, "/api/v1/dual/episodes/\(one)/played", token: ann, body: #"{"played":true,"updated_at":1}"#).status == .ok)
                #expect(try await client.json(.post, "/api/v1/dual/episodes/\(three)/download", token: ann).status == .accepted)
                _ = try await Self.episode(client, ann, show: show, number: 3) { Self.download($0)?["status"] as? String == "ready" }
                let cleaned = try await Self.episode(client, ann, show: show, number: 1) { Self.download($0) == nil }
                #expect(cleaned["played"] as? Bool == true, "the played episode made room")

                // Removing a download by hand; the episode streams from its host again.
                #expect(try await client.json(.delete, "/api/v1/dual/episodes/\(two)/download", token: ann).status == .noContent)
                #expect(try await client.json(.delete, "/api/v1/dual/episodes/\(two)/download", token: ann).status == .notFound)
                let streamed = try await client.execute(uri: "/api/v1/dual/episodes/\(two)/audio", method: .get, headers: [.authorization: "Bearer \(ann)"])
                #expect(streamed.status == .ok && streamed.body.readableBytes == FakePodcastHost.episodeSize)
            }
        }
    }
}
