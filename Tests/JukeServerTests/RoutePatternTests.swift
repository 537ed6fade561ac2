import HTTPTypes
import Hummingbird
import JukePlatform
import NIOCore
import Testing
import TuneTriviaServer

@testable import JukeServer

/// How an app names a route to the platform (TuneTrivia's answers, whose tokens are checked in
/// their batch), matched by method and path.
@Suite(.timeLimit(.minutes(5))) struct RoutePatternTests {
    static func request(_ method: HTTPRequest.Method, _ path: String) -> Request {
        Request(head: HTTPRequest(method: method, scheme: nil, authority: nil, path: path), body: RequestBody(buffer: ByteBuffer()))
    }

    @Test func aPatternMatchesItsMethodAndPathOnly() {
        let answers = RoutePattern(.post, "/api/v1/tunetrivia/sessions/{session_id}/guess")
        #expect(answers.matches(Self.request(.post, "/api/v1/tunetrivia/sessions/abc/guess")))
        #expect(answers.matches(Self.request(.post, "/api/v1/tunetrivia/sessions/abc/guess/")), "a trailing slash")
        #expect(answers.matches(Self.request(.post, "/api/v1/tunetrivia/sessions/abc/guess?x=1")), "a query")
        #expect(!answers.matches(Self.request(.get, "/api/v1/tunetrivia/sessions/abc/guess")), "another method")
        #expect(!answers.matches(Self.request(.post, "/api/v1/tunetrivia/sessions/abc/state")))
        #expect(!answers.matches(Self.request(.post, "/api/v1/tunetrivia/sessions/guess")), "a segment missing")
        #expect(!answers.matches(Self.request(.post, "/api/v1/back2back/sessions/abc/guess")), "another app's path")
    }

    /// The only route any app trusts a recent token on is TuneTrivia's answer.
    @Test func onlyAGamesAnswersAreBatchChecked() async throws {
        try await TestApp.run(.sqlite) { app, _ in
            let routes = app.services.apps.flatMap(\.batchCheckedTokenRoutes)
            #expect(routes.count == 1)
            #expect(routes.first?.matches(Self.request(.post, "/api/v1/tunetrivia/sessions/5f0c/guess")) == true)
        }
    }
}
