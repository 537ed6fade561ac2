import Foundation
import HummingbirdTesting
import JukeAPI
import JukeCore
import JukeTestSupport
import Testing

@testable import JukePlatform

/// Text no field accepts (NUL, control characters, bidirectional overrides; line breaks
/// outside free text) is refused with a 400 naming the field, on every database.
@Suite(.timeLimit(.minutes(5))) struct TextInputTests {
    @Test func theEscapeIsFoundAndAnEscapedBackslashIsNotIt() {
        #expect(TextInputMiddleware<JukeRequestContext>.jsonHasNul(Array(#"{"q":"a\u0000b"}"#.utf8)))
        #expect(TextInputMiddleware<JukeRequestContext>.jsonHasNul([0x7B, 0x00, 0x7D]))
        #expect(!TextInputMiddleware<JukeRequestContext>.jsonHasNul(Array(#"{"q":"a\\u0000b"}"#.utf8)))
        #expect(!TextInputMiddleware<JukeRequestContext>.jsonHasNul(Array(#"{"q":"\u00e9 \"x\" \\"}"#.utf8)))
        #expect(!TextInputMiddleware<JukeRequestContext>.jsonHasNul(Array(#"{"q":"\u00"#.utf8)))
        #expect(TextInputMiddleware<JukeRequestContext>.addressHasNul("/api/v1/catalog/tracks?genre=%00"))
        #expect(!TextInputMiddleware<JukeRequestContext>.addressHasNul("/api/v1/catalog/tracks?genre=%2000s"))
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

    @Test func theRulesTellLinesFromFreeText() throws {
        #expect(TextRules.isAllowed("Beyoncé – ضوء ‏(live)"))
        for refused in ["a\nb", "a\rb", "a\tb", "a\u{7F}", "a\u{85}b", "a\u{202E}gpj.exe", "a\u{2066}b", "a\u{2028}b"] {
            #expect(!TextRules.isAllowed(refused), "\(refused.unicodeScalars.map(\.value))")
        }
        #expect(TextRules.isAllowed("line one\nline two\r\n\tindented", as: .multiline))
        #expect(!TextRules.isAllowed("a\u{202E}b", as: .multiline) && !TextRules.isAllowed("a\u{1B}[31m", as: .multiline))
        // Outside text (tags, stations) is cleaned rather than refused.
        #expect(TextRules.cleaned(" Song\tTitle\r\n\u{202E}Part\u{7} 2 ") == "Song Title Part 2", "white space collapsed")
        #expect(TextRules.cleaned("\u{2066}A\u{2069}\u{85} \u{9B}B  \u{200F}C\u{202A}") == "A B \u{200F}C", "C1 and isolates go, the RTL mark stays")
        #expect(TextRules.cleaned("ضوء‏ 123", limit: 3) == "ضوء" && TextRules.cleanedOrNil("\u{0}\u{202E} ") == nil)
        typealias Middleware = TextInputMiddleware<JukeRequestContext>
        let contract =
            "paths:\n  /a:\n    post:\n      schema: { type: object, properties: { title: { type: string }, taste: { genres: x } } }\n        description: x\n        password: y\n"
        let fields = Middleware.fieldNames(contract: contract)
        #expect(["title", "taste", "genres", "description", "password", "type", "properties"].allSatisfy(fields.contains))
        // Words before a colon inside quotes are prose, not keys.
        let quoted = Middleware.fieldNames(
            contract: "      speed: { type: [number, \"null\"], description: \"null: the player's own.\" }\n      summary: 'note: x'\n")
        #expect(quoted == ["speed", "type", "description", "summary"], "\(quoted)")
        let spec = String(decoding: try OpenAPISpec.yaml(), as: UTF8.self)
        #expect(!Middleware.fieldNames(contract: spec).contains("null"))
        #expect(Middleware.refusedField(fields: fields, inJSON: Array(#"{"title":"Party"}"#.utf8)) == nil)
        #expect(Middleware.refusedField(fields: fields, inJSON: Array(#"{"title":"Par\nty"}"#.utf8)) == "title")
        #expect(Middleware.refusedField(fields: fields, inJSON: Array(#"{"taste":{"genres":["Folk","\u202Ekcor"]}}"#.utf8)) == "genres")
        #expect(Middleware.refusedField(fields: fields, inJSON: Array(#"{"description":"One.\nTwo.","password":"tab\there"}"#.utf8)) == nil)
        #expect(Middleware.refusedField(fields: fields, inJSON: Array(#"{"description":"\u001B[2J"}"#.utf8)) == "description")
        #expect(Middleware.refusedField(fields: fields, inJSON: Array("{\"title\":\"del\u{7F}\"}".utf8)) == "title")
        // A key the contract does not name is ignored by the decoders, and so here.
        #expect(Middleware.refusedField(fields: fields, inJSON: Array(#"{"title":"Party","x\u0001":"\u202E","extra":"a\nb"}"#.utf8)) == nil)
    }

    /// Titles and names with line breaks or a right-to-left override are refused, naming the
    /// field; free text keeps its line breaks.
    @Test(arguments: TestBackend.available)
    func titlesAndNamesRefuseControlCharacters(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let token = try await client.register("typist")
            let title = try await client.json(.post, "/api/v1/tunetrivia/sessions", token: token, body: #"{"title":"Quiz\r\nSet-Cookie: x"}"#)
            #expect(title.status == .badRequest && title.json["field"] as? String == "title", "\(title.json)")
            let bidi = try await client.json(.post, "/api/v1/back2back/sessions", token: token, body: #"{"title":"\u202Eevil"}"#)
            #expect(bidi.status == .badRequest && bidi.json["field"] as? String == "title", "\(bidi.json)")
            let name = try await client.json(
                .post, "/api/v1/auth/register", body: #"{"username":"other","password":"correct horse","display_name":"Bob\u0007"}"#)
            #expect(name.status == .badRequest && name.json["field"] as? String == "display_name", "\(name.json)")
            let query = try await client.json(.get, "/api/v1/catalog/tracks?genre=a%E2%80%AEb", token: token)
            #expect(query.status == .badRequest && query.json["field"] as? String == "genre", "\(query.json)")

            let persona = try await client.json(
                .post, "/api/v1/back2back/personas", token: token,
                body: #"{"name":"Folk digger","description":"Old ballads.\nNew ones too.","taste":{"genres":["Folk"],"artists":[],"adventure":0.1}}"#)
            #expect(persona.status == .created, "\(persona.json)")
            #expect(persona.json["description"] as? String == "Old ballads.\nNew ones too.")
            let quiz = try await client.json(.post, "/api/v1/tunetrivia/sessions", token: token, body: #"{"title":"Quiz \"night\" – ضوء"}"#)
            #expect(quiz.status == .created, "\(quiz.json)")
        }
    }
}
