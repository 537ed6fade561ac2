import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JukeTestSupport
import NIOCore
import Providers
import Testing
import TuneTrivia

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

/// AI trivia against a local fake of OpenAI's Chat Completions API: the same client as in
/// production with another base URL. Good replies are used; bad ones (the answer given away,
/// duplicate options, not JSON, a refusal, the wrong key, rate limit, quota and server errors, a
/// timeout, no server) are refused, and the game
/// falls back to Juke's own question.
@Suite(.timeLimit(.minutes(5))) struct AITriviaTests {
    /// What the fake answers, chosen by the song title in the prompt.
    static func fakeOpenAI() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/v1/chat/completions") { request, context -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let json = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
            let prompt = ((json["messages"] as? [[String: Any]])?.last?["content"] as? String) ?? ""
            let format = json["response_format"] as? [String: Any]
            guard request.headers[.authorization] == "Bearer test-key" else {
                return reply(401, #"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}"#)
            }
            guard json["model"] as? String == "test-model", format?["type"] as? String == "json_schema"
            else { return reply(400, #"{"error":{"message":"bad request shape","type":"invalid_request_error"}}"#) }
            func content(_ object: [String: Any]) -> Response {
                let text = String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
                let completion: [String: Any] = [
                    "id": "chatcmpl-1", "object": "chat.completion", "model": "test-model",
                    "choices": [["index": 0, "finish_reason": "stop", "message": ["role": "assistant", "content": text]]],
                ]
                return reply(200, String(decoding: (try? JSONSerialization.data(withJSONObject: completion)) ?? Data(), as: UTF8.self))
            }
            if prompt.contains("\"Good Song\"") {
                return content(["question": "Which year did this song top the charts?", "answer": "1975", "options": ["1973", "1975", "1977", "1979"]])
            }
            if prompt.contains("\"Giveaway\"") {
                return content([
                    "question": "Was this on the album Thriller?", "answer": "Thriller", "options": ["Thriller", "Bad", "Dangerous", "Off the Wall"],
                ])
            }
            if prompt.contains("\"Dupes\"") {
                return content(["question": "Which label released it first?", "answer": "A", "options": ["A", "A", "B", "C"]])
            }
            if prompt.contains("\"Garbage\"") {
                return reply(200, #"{"choices":[{"message":{"role":"assistant","content":"Sure! Here is a question: ..."}}]}"#)
            }
            if prompt.contains("\"NotJSON\"") { return reply(200, "<html>Bad gateway</html>") }
            if prompt.contains("\"Refuses\"") {
                return reply(200, #"{"choices":[{"message":{"role":"assistant","content":null,"refusal":"I can't help with that."}}]}"#)
            }
            if prompt.contains("\"Busy\"") {
                return reply(429, #"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#, headers: ["retry-after": "1"])
            }
            if prompt.contains("\"Quota\"") {
                return reply(429, #"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}"#)
            }
            if prompt.contains("\"Slow\"") {
                try await Task.sleep(for: .seconds(8))
                return content(["question": "Too late?", "answer": "x", "options": ["x", "y", "z", "w"]])
            }
            return reply(500, #"{"error":{"message":"The server had an error","type":"server_error"}}"#)
        }
        return router
    }

    static func reply(_ status: Int, _ body: String, headers: [String: String] = [:]) -> Response {
        var fields: HTTPFields = [.contentType: "application/json"]
        for (name, value) in headers { if let name = HTTPField.Name(name) { fields[name] = value } }
        return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func withFake(_ body: @escaping @Sendable (OpenAISettings) async throws -> Void) async throws {
        let app = Application(router: fakeOpenAI(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/v1"))
            // 3 s: long enough for a good reply while the whole suite runs in parallel on two
            // cores (at 1 s one timed out), short of the slow reply's 8 s.
            try await body(OpenAISettings(baseURL: url, apiKey: "test-key", timeout: 3))
        }
    }

    @Test func goodRepliesAreUsedAndBadOnesRefused() async throws {
        try await Self.withFake { settings in
            let writer = AITriviaWriter(settings: settings, model: "test-model", http: .tests)
            let good = try await writer.question(title: "Good Song", artist: "Band")
            #expect(good.answer == "1975" && good.options.count == 4 && good.source == "test-model")
            await #expect(throws: AITriviaWriter.Failure.rejected("the question gives the answer away")) {
                try await writer.question(title: "Giveaway", artist: "Band")
            }
            await #expect(throws: AITriviaWriter.Failure.rejected("the options must be 4 distinct answers")) {
                try await writer.question(title: "Dupes", artist: "Band")
            }
            await #expect(throws: AITriviaWriter.Failure.unreadable("the reply is not the trivia JSON")) {
                try await writer.question(title: "Garbage", artist: "Band")
            }
            await #expect(throws: AITriviaWriter.Failure.service(.malformed("not a chat completion"))) {
                try await writer.question(title: "NotJSON", artist: "Band")
            }
            await #expect(throws: AITriviaWriter.Failure.service(.refused("I can't help with that."))) {
                try await writer.question(title: "Refuses", artist: "Band")
            }
            // A rate limit is not waited out: the game asks Juke's own question at once.
            await #expect(throws: AITriviaWriter.Failure.service(.rateLimited(retryAfter: 1))) {
                try await writer.question(title: "Busy", artist: "Band")
            }
            await #expect(throws: AITriviaWriter.Failure.service(.quota("You exceeded your current quota"))) {
                try await writer.question(title: "Quota", artist: "Band")
            }
            await #expect(throws: AITriviaWriter.Failure.service(.status(500, "The server had an error"))) {
                try await writer.question(title: "Broken", artist: "Band")
            }
            await #expect(throws: AITriviaWriter.Failure.service(.timeout)) {
                try await writer.question(title: "Slow", artist: "Band")
            }
            let wrongKey = AITriviaWriter(settings: OpenAISettings(baseURL: settings.baseURL, apiKey: "nope"), model: "test-model", http: .tests)
            await #expect(throws: AITriviaWriter.Failure.service(.unauthorized("Incorrect API key provided"))) {
                try await wrongKey.question(title: "Good Song", artist: "Band")
            }
            let nowhere = try #require(URL(string: "http://127.0.0.1:1/v1"))
            let unreachable = AITriviaWriter(settings: OpenAISettings(baseURL: nowhere, apiKey: "test-key"), model: "test-model", http: .tests)
            do {
                _ = try await unreachable.question(title: "Good Song", artist: "Band")
                Issue.record("a server that is not there answered")
            } catch let error as AITriviaWriter.Failure {
                if case .service(.unreachable) = error {} else { Issue.record("expected unreachable, got \(error)") }
            }
        }
    }

    /// In a game: the AI's question when it passes, Juke's own when it does not.
    @Test func gamesFallBackToLibraryTrivia() async throws {
        try await Self.withFake { settings in
            try await TestApp.run(
                .sqlite,
                configure: {
                    $0.openAI = settings
                    $0.groups[TuneTriviaSettings.self].triviaModel = "test-model"
                }
            ) { app, client in
                let host = try await client.register("host")
                _ = try await app.addSongs([
                    ("Good Song", "Band", "Pop", 1975), ("Giveaway", "Band", "Pop", 1982), ("Quota", "Other", "Rock", 1990),
                    ("Fourth", "Other", "Rock", 1991), ("Fifth", "Third", "Jazz", 1960),
                ])
                let game = try await client.json(
                    .post, "/api/v1/tunetrivia/sessions", token: host, body: #"{"title":"AI","num_songs":5,"trivia_enabled":true}"#)
                let id = try #require(game.json["id"] as? String)
                _ = try await client.json(.post, "/api/v1/tunetrivia/sessions/\(id)/rounds/auto-generate", token: host)
                let rounds = try await client.json(.get, "/api/v1/tunetrivia/sessions/\(id)/rounds", token: host)
                let list = try #require(try JSONSerialization.jsonObject(with: Data(buffer: rounds.raw)) as? [[String: Any]])
                for round in list {
                    let r = try await client.json(.post, "/api/v1/tunetrivia/sessions/\(id)/rounds/\(round["id"] as? String ?? "")/trivia", token: host)
                    #expect(r.status == .ok)
                    let question = r.json["trivia_question"] as? String ?? ""
                    if round["title"] as? String == "Good Song" {
                        #expect(question == "Which year did this song top the charts?")
                    } else {
                        // Juke's own questions, never the refused ones.
                        #expect(!question.contains("Thriller") && !question.isEmpty)
                    }
                }
                // The key never reaches a browser.
                #expect(!String(buffer: rounds.raw).contains("test-key"))
                // Where trivia is offered, the pages name the model that words it.
                for page in ["/tunetrivia", "/tunetrivia/\(id)"] {
                    let html = String(buffer: try await client.json(.get, page, token: host).raw)
                    #expect(html.contains("worded by test-model") && !html.contains("test-key"), "\(page)")
                }
            }
        }
    }
}
