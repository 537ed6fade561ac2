import Foundation
import JukeTestSupport
import NIOCore
import Synchronization
import Testing

@testable import Providers

/// The web fetcher against a local podcast host: conditional requests, redirects told apart
/// (permanent ones move a subscription), the statuses hosts fail with, Range, bounds, silence,
/// and no address inside a private network unless the server allows them.
@Suite(.timeLimit(.minutes(5))) struct WebFetcherTests {
    /// A generous idle limit: CI runs every suite at once on two cores, and a host that answers
    /// in 1 s on a quiet machine can take longer there.
    let fetcher = WebFetcher(allowPrivateNetworks: true, idleTimeout: .seconds(15))

    func url(_ base: URL, _ path: String) throws -> URL { try #require(URL(string: base.absoluteString + path)) }

    @Test func aFeedIsFetchedThenUnchangedIsA304() async throws {
        let host = FakePodcastHost()
        try await host.run { base in
            let (first, body) = try await fetcher.document(try url(base, "/feed.xml"), limit: 1_000_000)
            #expect(first.status == 200)
            #expect(first.contentType == "application/rss+xml" && first.charset == "utf-8")
            #expect(String(decoding: body, as: UTF8.self).contains("<title>The Fake Show</title>"))
            let etag = try #require(first.headers["etag"])
            let (second, nothing) = try await fetcher.document(try url(base, "/feed.xml"), headers: ["If-None-Match": etag], limit: 1_000_000)
            #expect(second.status == 304 && nothing.isEmpty)
            #expect(host.requests(to: "/feed.xml").last?["if-none-match"] == etag)
            #expect(host.requests(to: "/feed.xml").last?["user-agent"]?.hasPrefix("Juke/") == true)
            host.publish()
            let (third, _) = try await fetcher.document(try url(base, "/feed.xml"), headers: ["If-None-Match": etag], limit: 1_000_000)
            #expect(third.status == 200 && third.headers["etag"] != etag)
        }
    }

    @Test func permanentAndTemporaryRedirectsAreToldApart() async throws {
        try await FakePodcastHost().run { base in
            let moved = try await fetcher.document(try url(base, "/moved.xml"), limit: 1_000_000).answer
            #expect(moved.status == 200)
            let feed = try url(base, "/feed.xml")
            #expect(moved.movedPermanently == feed)
            let temporary = try await fetcher.document(try url(base, "/temporary.xml"), limit: 1_000_000).answer
            #expect(temporary.status == 200 && temporary.url == feed)
            #expect(temporary.movedPermanently == nil, "a 302 does not move a subscription")
            let direct = try await fetcher.document(try url(base, "/feed.xml"), limit: 1_000_000).answer
            #expect(direct.movedPermanently == nil)
        }
    }

    @Test func failingStatusesComeBackWithWhatTheHostAsked() async throws {
        try await FakePodcastHost().run { base in
            let gone = try await fetcher.document(try url(base, "/gone.xml"), limit: 1000).answer
            #expect(gone.status == 410)
            let missing = try await fetcher.document(try url(base, "/missing.xml"), limit: 1000).answer
            #expect(missing.status == 404)
            let limited = try await fetcher.document(try url(base, "/limited.xml"), limit: 1000).answer
            #expect(limited.status == 429 && limited.retryAfter(now: Date()) == 120)
            let unavailable = try await fetcher.document(try url(base, "/unavailable.xml"), limit: 1000).answer
            #expect(unavailable.status == 503)
            #expect(unavailable.retryAfter(now: Date(timeIntervalSince1970: 4_102_444_700)) == 100, "an HTTP date counts from now")
            #expect(unavailable.retryAfter(now: Date()) == RetryAfter.longest, "at most a day")
        }
    }

    @Test func aSilentHostTimesOut() async throws {
        // The host waits 3 s before answering; a fetcher that gives up after 1 s of silence must
        // not wait for it.
        let impatient = WebFetcher(allowPrivateNetworks: true, idleTimeout: .seconds(1))
        try await FakePodcastHost().run { base in
            do {
                _ = try await impatient.document(try url(base, "/slow.xml"), limit: 1_000_000)
                Issue.record("a host silent for longer than the idle limit was waited for")
            } catch let error as WebFetchError {
                guard case .unreachable = error else { throw error }
            }
        }
    }

    @Test func privateNetworksAreRefusedUnlessAllowed() async throws {
        try await FakePodcastHost().run { base in
            let strict = WebFetcher()
            do {
                _ = try await strict.document(try url(base, "/feed.xml"), limit: 1000)
                Issue.record("a loopback address was fetched")
            } catch let error as WebFetchError {
                #expect(error == .privateNetwork("127.0.0.1"))
            }
            await #expect(throws: WebFetchError.self) { try await strict.document(try #require(URL(string: "file:///etc/passwd")), limit: 1000) }
            await #expect(throws: WebFetchError.self) { try await strict.document(try #require(URL(string: "http://[::1]:9/")), limit: 1000) }
        }
    }

    /// The guard is applied to every hop: a public first address that redirects into a
    /// private network is refused there. (The test's host is on loopback, so this fetcher
    /// allows 127.0.0.1 alone, as if it were on the internet.)
    @Test func aRedirectIntoAPrivateNetworkIsRefused() async throws {
        let host = FakePodcastHost()
        try await host.run { base in
            let guarded = WebFetcher(alsoAllowing: { $0 == [127, 0, 0, 1] })
            let port = base.port ?? 0
            #expect(try await guarded.document(try url(base, "/feed.xml"), limit: 1_000_000).answer.status == 200)
            for (target, refused) in [("http://127.0.0.2:\(port)/feed.xml", "127.0.0.2"), ("http://10.0.0.1/", "10.0.0.1"), ("http://[::1]:\(port)/", "::1")] {
                do {
                    _ = try await guarded.document(try url(base, "/redirect?to=" + target), limit: 1_000_000)
                    Issue.record("a redirect to \(target) was followed")
                } catch let error as WebFetchError {
                    #expect(error == .privateNetwork(refused))
                }
            }
            #expect(host.requests(to: "/redirect").count == 3)
        }
    }

    /// The address checked is the one DNS gives for the name, not the name: "localhost" is a
    /// name that resolves into loopback.
    @Test func aNameResolvingToAPrivateAddressIsRefused() async throws {
        try await FakePodcastHost().run { base in
            let byName = try #require(URL(string: "http://localhost:\(base.port ?? 0)/feed.xml"))
            do {
                _ = try await WebFetcher().document(byName, limit: 1_000_000)
                Issue.record("a name resolving to loopback was fetched")
            } catch let error as WebFetchError {
                #expect(error == .privateNetwork("localhost"))
            }
            #expect(try await fetcher.document(byName, limit: 1_000_000).answer.status == 200, "allowed when private networks are")
        }
    }

    /// Each hop's name is looked up once, by the guard, and the request goes to the address
    /// it checked: these names exist only in this fetcher's resolver, so a fetch that let the
    /// HTTP client look the name up again (where DNS could answer otherwise) finds nothing. The
    /// name stays the request's (the Host header, which the host's feed links are made of). A
    /// redirect to a name that resolves into a private network is refused before it is asked.
    @Test func theAddressCheckedIsTheAddressConnectedOnEveryHop() async throws {
        let host = FakePodcastHost()
        try await host.run { base in
            let port = base.port ?? 0
            func address(_ bytes: [UInt8]) throws -> ResolvedAddresses.Address {
                ResolvedAddresses.Address(socket: try SocketAddress(ipAddress: bytes.map(String.init).joined(separator: "."), port: port), bytes: bytes)
            }
            let (privateOne, loopback, rebound) = (try address([10, 0, 0, 7]), try address([127, 0, 0, 1]), try address([10, 1, 2, 3]))
            let lookups = Mutex<[String]>([])
            var guarded = WebFetcher(alsoAllowing: { $0 == [127, 0, 0, 1] })
            guarded.addressGuard.resolve = { name, _ throws(StreamRelayError) in
                lookups.withLock { $0.append(name) }
                switch name {
                case "podcasts.example": return [privateOne, loopback]
                case "rebound.example": return [rebound]
                default: throw .unreachable("\(name) is not a name this test knows")
                }
            }
            let byName = try #require(URL(string: "http://podcasts.example:\(port)/feed.xml"))
            let (answer, body) = try await guarded.document(byName, limit: 1_000_000)
            #expect(answer.status == 200)
            #expect(String(decoding: body, as: UTF8.self).contains("http://podcasts.example:\(port)/"), "the request was for the name")
            #expect(lookups.withLock { $0 } == ["podcasts.example"])
            let fetched = host.requests(to: "/feed.xml").count
            let redirecting = try #require(URL(string: "http://podcasts.example:\(port)/redirect?to=http://rebound.example:\(port)/feed.xml"))
            do {
                _ = try await guarded.document(redirecting, limit: 1_000_000)
                Issue.record("a redirect to a name resolving into a private network was followed")
            } catch let error as WebFetchError {
                #expect(error == .privateNetwork("rebound.example"))
            }
            #expect(host.requests(to: "/redirect").count == 1 && host.requests(to: "/feed.xml").count == fetched)
            #expect(lookups.withLock { $0 } == ["podcasts.example", "podcasts.example", "rebound.example"])
        }
    }

    @Test func rangesBoundsAndRefusals() async throws {
        let host = FakePodcastHost()
        try await host.run { base in
            let whole = FakePodcastHost.episodeBytes(1)
            let (answer, tail) = try await fetcher.document(try url(base, "/episodes/1.mp3"), headers: ["Range": "bytes=150000-"], limit: 1_000_000)
            #expect(answer.status == 206 && tail == Array(whole[150_000...]))
            await #expect(throws: WebFetchError.tooLarge(1000)) { try await fetcher.document(try url(base, "/episodes/1.mp3"), limit: 1000) }
            struct NotAFeed: Error {}
            await #expect(throws: NotAFeed.self) {
                try await fetcher.document(try url(base, "/image.png"), limit: 1000) { answer in
                    if answer.contentType?.hasPrefix("image/") == true { throw NotAFeed() }
                }
            }
            host.dropAfter.withLock { $0 = 5000 }
            do {
                _ = try await fetcher.document(try url(base, "/episodes/2.mp3"), limit: 1_000_000)
                Issue.record("a body cut short was taken as whole")
            } catch let error as WebFetchError {
                guard case .unreachable = error else { throw error }
            }
        }
    }

    @Test func retryAfterReadsSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:50:37 GMT", now: now) == 60)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:40:37 GMT", now: now) == 0, "a date passed is now")
        #expect(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == nil, "only the fixed form")
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:50:37 GMT") == nil, "without a clock a date is unknown")
        #expect(RetryAfter.seconds("30") == 30)
    }
}
