import Foundation
import JukeTestSupport
import Testing

@testable import Providers

/// The one outbound client against a local host speaking plain HTTP/1.1: bodies bounded,
/// deadlines kept (whole answers and streams), redirects followed hop by hop, and a client
/// shut down refusing further calls.
@Suite(.timeLimit(.minutes(5))) struct HTTPClientTests {
    func request(_ base: URL, _ path: String) throws -> OutboundRequest {
        OutboundRequest(url: try #require(URL(string: base.absoluteString + path)))
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        try await FakePodcastHost().run { base in
            let episode = try request(base, "/episodes/1.mp3")
            await #expect(throws: TransportError.tooLarge(1000)) { try await HTTPClient.tests.send(episode, timeout: 15, limit: 1000) }
            let whole = try await HTTPClient.tests.send(episode, timeout: 15, limit: 1 << 20)
            #expect(whole.status == 200 && Array(whole.body) == FakePodcastHost.episodeBytes(1))
        }
    }

    @Test func aServiceSilentPastTheDeadlineTimesOut() async throws {
        // The host answers after 3 s; a call allowed half a second does not wait for it.
        try await FakePodcastHost().run { base in
            await #expect(throws: TransportError.timeout(0.5)) { try await HTTPClient.tests.send(try request(base, "/slow.xml"), timeout: 0.5) }
            var silent = false
            do {
                for try await _ in HTTPClient.tests.stream(try request(base, "/slow.xml"), idleTimeout: 0.5) {}
            } catch TransportError.timeout {
                silent = true
            }
            #expect(silent, "a stream silent past its idle limit ends with a timeout")
        }
    }

    @Test func redirectsAreFollowedWithTheirHeaders() async throws {
        let host = FakePodcastHost()
        try await host.run { base in
            var moved = try request(base, "/moved.xml")
            moved.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
            let reply = try await HTTPClient.tests.send(moved, timeout: 15)
            #expect(reply.status == 200 && String(decoding: reply.body, as: UTF8.self).contains("<title>The Fake Show</title>"))
            #expect(host.requests(to: "/feed.xml").last?["authorization"] == "Bearer secret", "the same host keeps the header")
        }
        // A POST redirected by 303 becomes a GET without its body; another host loses Authorization.
        var post = OutboundRequest(url: try #require(URL(string: "http://a.example/x")))
        post.httpMethod = "POST"
        post.httpBody = Data("{}".utf8)
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        let next = HTTPClient.redirected(post, to: try #require(URL(string: "http://b.example/y")), status: 303)
        #expect(next.httpMethod == "GET" && next.httpBody == nil && next.value(forHTTPHeaderField: "content-type") == nil)
        #expect(next.value(forHTTPHeaderField: "Authorization") == nil)
        let kept = HTTPClient.redirected(post, to: try #require(URL(string: "http://a.example/z")), status: 307)
        #expect(kept.httpMethod == "POST" && kept.httpBody == post.httpBody && kept.value(forHTTPHeaderField: "authorization") == "Bearer secret")
    }

    @Test func aClientShutDownRefusesCalls() async throws {
        try await FakePodcastHost().run { base in
            let own = HTTPClient()
            #expect(try await own.send(try request(base, "/feed.xml"), timeout: 15).status == 200)
            try await own.shutdown()
            try await own.shutdown()  // a second time is harmless
            await #expect(throws: TransportError.self) { try await own.send(try request(base, "/feed.xml"), timeout: 15) }
        }
    }
}
