import Foundation
import HummingbirdTesting
import JukeTestSupport
import Testing

@testable import JukePlatform

/// Text with U+0000 is refused with a 400 on every database (PostgreSQL cannot store it).
@Suite(.timeLimit(.minutes(5))) struct NulCharacterTests {
    @Test func theEscapeIsFoundAndAnEscapedBackslashIsNotIt() {
        #expect(NulCharacterMiddleware<JukeRequestContext>.jsonHasNul(Array(#"{"q":"a\u0000b"}"#.utf8)))
        #expect(NulCharacterMiddleware<JukeRequestContext>.jsonHasNul([0x7B, 0x00, 0x7D]))
        #expect(!NulCharacterMiddleware<JukeRequestContext>.jsonHasNul(Array(#"{"q":"a\\u0000b"}"#.utf8)))
        #expect(!NulCharacterMiddleware<JukeRequestContext>.jsonHasNul(Array(#"{"q":"\u00e9 \"x\" \\"}"#.utf8)))
        #expect(!NulCharacterMiddleware<JukeRequestContext>.jsonHasNul(Array(#"{"q":"\u00"#.utf8)))
        #expect(NulCharacterMiddleware<JukeRequestContext>.addressHasNul("/api/v1/catalog/tracks?genre=%00"))
        #expect(!NulCharacterMiddleware<JukeRequestContext>.addressHasNul("/api/v1/catalog/tracks?genre=%2000s"))
    }

    @Test(arguments: TestBackend.available)
    func aQueryOrABodyWithNulIsABadRequest(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let token = try await client.register("nul")
            let query = try await client.json(.get, "/api/v1/catalog/tracks?genre=%00", token: token)
            #expect(query.status == .badRequest)
            #expect(query.json["error"] as? String == "bad_request")
            let body = try await client.json(.post, "/api/v1/back2back/sessions/join", token: token, body: #"{"invite_token":"x\u0000"}"#)
            #expect(body.status == .badRequest)
            #expect(body.json["message"] as? String == "Text may not contain the NUL character (U+0000).")
            // The same requests without it are answered as usual.
            #expect(try await client.json(.get, "/api/v1/catalog/tracks?genre=rock", token: token).status == .ok)
            #expect(try await client.json(.post, "/api/v1/back2back/sessions/join", token: token, body: #"{"invite_token":"x"}"#).status == .notFound)
        }
    }
}
