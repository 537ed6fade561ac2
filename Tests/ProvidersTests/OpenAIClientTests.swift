import Foundation
import JukeTestSupport
import Testing

@testable import Providers

/// The OpenAI client against the local fake: the same code as in production with another
/// base URL.
@Suite(.timeLimit(.minutes(5))) struct OpenAIClientTests {
    static let request = OpenAIClient.StructuredRequest(
        model: "test-model", effort: "low", instructions: "You are a DJ.", input: "Pick a song.", schemaName: "pick",
        schema:
            #"{"type":"object","additionalProperties":false,"required":["artist","title"],"properties":{"artist":{"type":"string"},"title":{"type":"string"}}}"#
    )
    static let answer = #"{"artist":"Scott Joplin","title":"The Entertainer"}"#

    static func client(_ url: URL, timeout: TimeInterval = 5) -> OpenAIClient {
        OpenAIClient(http: .tests, baseURL: url, apiKey: "test-key", timeout: timeout, sleep: { _ in })
    }

    @Test func aStructuredAnswerComesFromTheResponsesAPIWithTheSchemaAndEffort() async throws {
        let fake = FakeOpenAI(behaviour: .responds(Self.answer))
        try await fake.run { url in
            let answer = try await Self.client(url).structured(Self.request)
            #expect(answer == Self.answer)
            let (path, body) = try #require(fake.log.all.first)
            #expect(path == "responses" && body["model"] as? String == "test-model")
            let format = (body["text"] as? [String: Any])?["format"] as? [String: Any]
            #expect(format?["type"] as? String == "json_schema" && format?["strict"] as? Bool == true && format?["name"] as? String == "pick")
            #expect((body["reasoning"] as? [String: Any])?["effort"] as? String == "low")
        }
    }

    @Test func aServerWithoutTheResponsesAPIIsAskedThroughChatCompletions() async throws {
        let fake = FakeOpenAI(behaviour: .chatOnly(Self.answer))
        try await fake.run { url in
            let answer = try await Self.client(url).structured(Self.request)
            #expect(answer == Self.answer)
            #expect(fake.log.paths == ["responses", "chat"])
            let body = try #require(fake.log.all.last?.1)
            #expect((body["response_format"] as? [String: Any])?["type"] as? String == "json_schema")
        }
    }

    @Test func withoutStructuredOutputTheSchemaGoesIntoTheInstructions() async throws {
        let fake = FakeOpenAI(behaviour: .chatWithoutStructuredOutput(Self.answer))
        try await fake.run { url in
            let answer = try await Self.client(url).structured(Self.request)
            #expect(answer == Self.answer)
            #expect(fake.log.paths == ["responses", "chat", "chat"])
            let last = try #require(fake.log.all.last?.1)
            #expect(last["response_format"] == nil)
            let system = ((last["messages"] as? [[String: Any]])?.first?["content"] as? String) ?? ""
            #expect(system.contains("JSON Schema") && system.contains("\"artist\""))
        }
    }

    @Test func rateLimitsAreRetriedAfterRetryAfterThenReported() async throws {
        let waits = WaitLog()
        let fake = FakeOpenAI(behaviour: .rateLimitedThen(times: 2, Self.answer))
        try await fake.run { url in
            let client = OpenAIClient(http: .tests, baseURL: url, apiKey: "test-key", timeout: 5, maxRetries: 2, sleep: { waits.add($0) })
            let answer = try await client.structured(Self.request)
            #expect(answer == Self.answer)
            #expect(waits.all == [1, 1])
        }
        let stubborn = FakeOpenAI(behaviour: .rateLimitedThen(times: 5, Self.answer))
        try await stubborn.run { url in
            let client = OpenAIClient(http: .tests, baseURL: url, apiKey: "test-key", timeout: 5, maxRetries: 2, sleep: { _ in })
            await #expect(throws: OpenAIError.rateLimited(retryAfter: 1)) { try await client.structured(Self.request) }
            #expect(stubborn.log.paths.count == 3)
        }
    }

    @Test func quotaErrorsAreNotRetried() async throws {
        let fake = FakeOpenAI(behaviour: .quota)
        try await fake.run { url in
            await #expect(throws: OpenAIError.quota("You exceeded your current quota")) { try await Self.client(url).structured(Self.request) }
            #expect(fake.log.paths == ["responses"])
        }
    }

    @Test func serverErrorsAreRetriedOnceThenReported() async throws {
        let fake = FakeOpenAI(behaviour: .serverError)
        try await fake.run { url in
            await #expect(throws: OpenAIError.status(500, "The server had an error")) { try await Self.client(url).structured(Self.request) }
            #expect(fake.log.paths == ["responses", "responses"])
        }
    }

    @Test func aWrongKeyIsUnauthorized() async throws {
        try await FakeOpenAI(behaviour: .responds(Self.answer)).run { url in
            let client = OpenAIClient(http: .tests, baseURL: url, apiKey: "wrong", timeout: 5)
            await #expect(throws: OpenAIError.unauthorized("Incorrect API key provided")) { try await client.structured(Self.request) }
        }
    }

    @Test func aSlowServerTimesOutAndGarbageIsMalformed() async throws {
        try await FakeOpenAI(behaviour: .slow(3, Self.answer)).run { url in
            await #expect(throws: OpenAIError.timeout) { try await Self.client(url, timeout: 0.5).structured(Self.request) }
        }
        try await FakeOpenAI(behaviour: .garbage).run { url in
            await #expect(throws: OpenAIError.malformed("no output text")) { try await Self.client(url).structured(Self.request) }
        }
    }

    @Test func aStreamDeliversProgressTextSourcesAndTheWhole() async throws {
        let pieces = ["You are ", "a crate ", "digger. ", "Ünïcødé 🎵"]
        let fake = FakeOpenAI(behaviour: .streams(pieces))
        try await fake.run { url in
            var events: [StreamEvent] = []
            for try await event in Self.client(url).streamText(model: "m", effort: "medium", instructions: "i", input: "x", webSearch: true) {
                events.append(event)
            }
            #expect(events.compactMap { if case .text(let t) = $0 { t } else { nil } } == pieces)
            #expect(events.contains(.progress("Searching the web…")))
            #expect(events.contains(.source(Source(title: "Crates", url: "https://example.org/crates"))))
            #expect(events.last == .done(pieces.joined()))
            let body = try #require(fake.log.all.first?.1)
            #expect(body["stream"] as? Bool == true && (body["tools"] as? [[String: Any]])?.first?["type"] as? String == "web_search")
        }
    }

    @Test func aStreamFallsBackToChatChunksAndReportsErrorEvents() async throws {
        try await FakeOpenAI(behaviour: .chatOnly("A whole guide.")).run { url in
            var text = ""
            for try await event in Self.client(url).streamText(model: "m", effort: nil, instructions: "i", input: "x", webSearch: false) {
                if case .done(let all) = event { text = all }
            }
            #expect(text == "A whole guide.")
        }
        try await FakeOpenAI(behaviour: .streamFails).run { url in
            await #expect(throws: OpenAIError.quota("You exceeded your current quota")) {
                for try await _ in Self.client(url).streamText(model: "m", effort: nil, instructions: "i", input: "x", webSearch: false) {}
            }
        }
    }
}

final class WaitLog: @unchecked Sendable {
    private let lock = NSLock()
    private var waits: [Double] = []
    func add(_ w: Double) { lock.withLock { waits.append(w) } }
    var all: [Double] { lock.withLock { waits } }
}

/// The server-sent events parser, alone: splits anywhere, line endings of every kind,
/// comments, multi-line data, and random bytes that must never trap it.
@Suite(.timeLimit(.minutes(5))) struct ServerSentEventsTests {
    @Test func eventsSurviveAnySplitAndEveryLineEnding() {
        let text = ": comment\r\nevent: delta\r\ndata: one\r\ndata: two\r\n\r\nid: 7\ndata: three\n\nevent: x\rdata:four\r\r"
        let bytes = Array(text.utf8)
        for size in 1...bytes.count {
            var parser = ServerSentEvents()
            var events: [ServerSentEvents.Event] = []
            var i = 0
            while i < bytes.count {
                events += parser.feed(bytes[i..<min(bytes.count, i + size)])
                i += size
            }
            #expect(
                events == [
                    .init(type: "delta", data: "one\ntwo"), .init(type: "message", data: "three", id: "7"), .init(type: "x", data: "four", id: "7"),
                ], "split \(size)")
        }
    }

    @Test func anUnfinishedEventIsDroppedAndRandomBytesNeverTrap() {
        var parser = ServerSentEvents()
        #expect(parser.feed(Array("data: half".utf8)).isEmpty)
        #expect(parser.finish().isEmpty)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var p = ServerSentEvents()
            let n = Int.random(in: 0..<300, using: &rng)
            let alphabet = Array("data: event:\n\r:{}é".utf8) + [0, 0xFF, 0xC3]
            _ = p.feed((0..<n).map { _ in alphabet.randomElement(using: &rng) ?? 0 })
        }
    }
}
