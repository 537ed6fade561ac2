public import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

/// A local stand-in for OpenAI's HTTP API that speaks its documented wire format: the
/// Responses API (JSON and server-sent events), Chat Completions (JSON and chunks), and its
/// errors (429 with Retry-After, insufficient_quota, 404 for a server without an endpoint).
/// What it does is chosen per test by `Behaviour`.
public struct FakeOpenAI: Sendable {
    public enum Behaviour: Sendable {
        /// Responses API answers with this JSON text.
        case responds(String)
        /// No /responses (an OpenAI-compatible server that only has Chat Completions).
        case chatOnly(String)
        /// /responses and response_format both refused: the schema must be in the prompt.
        case chatWithoutStructuredOutput(String)
        /// 429 rate limits `times` times with Retry-After, then the answer.
        case rateLimitedThen(times: Int, String)
        case quota
        case serverError
        /// Answers after `seconds`.
        case slow(Double, String)
        /// A reply that is not a response object.
        case garbage
        /// Streams these text pieces and one cited source.
        case streams([String])
        /// Streams an error event mid-way.
        case streamFails
        /// Answers these JSON texts in turn, one per request (the last one again after that).
        case script([String])
    }

    public let behaviour: Behaviour
    /// What the fake received, for assertions: (path, JSON body).
    public let log = Log()

    public init(behaviour: Behaviour) { self.behaviour = behaviour }

    public final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [(String, [String: Any])] = []
        private var waiting = 0
        func add(_ path: String, _ body: [String: Any]) { lock.withLock { items.append((path, body)) } }
        public var all: [(String, [String: Any])] { lock.withLock { items } }
        /// Slow answers not given yet.
        public var unanswered: Int { lock.withLock { waiting } }
        func wait(_ change: Int) { lock.withLock { waiting += change } }
        public var paths: [String] { all.map(\.0) }
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        let count = Counter()
        router.post("/v1/responses") { request, _ -> Response in
            let body = try await Self.json(request)
            log.add("responses", body)
            guard request.headers[.authorization] == "Bearer test-key" else {
                return Self.reply(401, #"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}"#)
            }
            switch behaviour {
            case .responds(let text): return Self.reply(200, Self.response(text))
            case .chatOnly, .chatWithoutStructuredOutput: return Self.reply(404, #"{"error":{"message":"Not found","type":"invalid_request_error"}}"#)
            case .rateLimitedThen(let times, let text):
                if count.next() <= times {
                    return Self.reply(
                        429, #"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#, headers: ["Retry-After": "1"])
                }
                return Self.reply(200, Self.response(text))
            case .quota:
                return Self.reply(429, #"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}"#)
            case .serverError: return Self.reply(500, #"{"error":{"message":"The server had an error","type":"server_error"}}"#)
            case .slow(let seconds, let text):
                log.wait(1)
                defer { log.wait(-1) }
                try await Task.sleep(for: .seconds(seconds))
                return Self.reply(200, Self.response(text))
            case .garbage: return Self.reply(200, #"{"id":"resp_1","object":"response","output":[{"type":"reasoning","summary":[]}]}"#)
            case .streams(let pieces): return Self.stream(Self.responsesEvents(pieces))
            case .script(let texts):
                let n = count.next()
                return Self.reply(200, Self.response(texts[min(n, texts.count) - 1]))
            case .streamFails:
                return Self.stream([
                    ("response.created", #"{"type":"response.created","response":{"id":"resp_1","status":"in_progress"}}"#),
                    ("response.output_text.delta", #"{"type":"response.output_text.delta","delta":"Half a "}"#),
                    ("error", #"{"type":"error","code":"insufficient_quota","message":"You exceeded your current quota"}"#),
                ])
            }
        }
        router.post("/v1/chat/completions") { request, _ -> Response in
            let body = try await Self.json(request)
            log.add("chat", body)
            switch behaviour {
            case .chatOnly(let text):
                if body["stream"] as? Bool == true { return Self.stream(Self.chatChunks([text])) }
                return Self.reply(200, Self.chat(text))
            case .chatWithoutStructuredOutput(let text):
                if body["response_format"] != nil {
                    return Self.reply(
                        400, #"{"error":{"message":"response_format json_schema is not supported by this model","type":"invalid_request_error"}}"#)
                }
                return Self.reply(200, Self.chat(text))
            default: return Self.reply(500, #"{"error":{"message":"unexpected","type":"server_error"}}"#)
            }
        }
        return router
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func next() -> Int {
            lock.withLock {
                n += 1; return n
            }
        }
    }

    static func json(_ request: Request) async throws -> [String: Any] {
        let buffer = try await request.body.collect(upTo: 1 << 20)
        return (try? JSONSerialization.jsonObject(with: Data(buffer: buffer))) as? [String: Any] ?? [:]
    }

    static func reply(_ status: Int, _ body: String, headers: [String: String] = [:]) -> Response {
        var fields: HTTPFields = [.contentType: "application/json"]
        for (k, v) in headers { if let name = HTTPField.Name(k) { fields[name] = v } }
        return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    public static func encode(_ object: Any) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }

    /// A completed Responses API object whose output message holds `text`.
    static func response(_ text: String) -> String {
        encode([
            "id": "resp_1", "object": "response", "status": "completed", "model": "test-model",
            "output": [
                ["type": "reasoning", "id": "rs_1", "summary": []],
                [
                    "type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                    "content": [["type": "output_text", "text": text, "annotations": []]],
                ],
            ],
        ])
    }

    static func chat(_ text: String) -> String {
        encode([
            "id": "chatcmpl-1", "object": "chat.completion", "model": "test-model",
            "choices": [["index": 0, "finish_reason": "stop", "message": ["role": "assistant", "content": text]]],
        ])
    }

    static func responsesEvents(_ pieces: [String]) -> [(String, String)] {
        var events: [(String, String)] = [
            ("response.created", #"{"type":"response.created","response":{"id":"resp_1","status":"in_progress"}}"#),
            ("response.web_search_call.searching", #"{"type":"response.web_search_call.searching","item_id":"ws_1"}"#),
        ]
        for piece in pieces {
            events.append(("response.output_text.delta", encode(["type": "response.output_text.delta", "delta": piece])))
        }
        events.append(
            (
                "response.output_text.annotation.added",
                encode([
                    "type": "response.output_text.annotation.added",
                    "annotation": ["type": "url_citation", "url": "https://example.org/crates", "title": "Crates"],
                ])
            ))
        events.append(("response.completed", encode(["type": "response.completed", "response": ["id": "resp_1", "status": "completed", "output": []]])))
        return events
    }

    static func chatChunks(_ pieces: [String]) -> [(String, String)] {
        pieces.map { ("", encode(["choices": [["index": 0, "delta": ["content": $0]]]])) } + [("", "[DONE]")]
    }

    /// Server-sent events, split at odd places to test the client's reassembly.
    static func stream(_ events: [(String, String)]) -> Response {
        var text = ""
        for (type, data) in events {
            if !type.isEmpty { text += "event: \(type)\n" }
            text += "data: \(data)\n\n"
        }
        let bytes = Array(text.utf8)
        let body = ResponseBody { writer in
            var i = 0
            while i < bytes.count {
                let end = min(bytes.count, i + 37)
                try await writer.write(ByteBuffer(bytes: bytes[i..<end]))
                i = end
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream"], body: body)
    }

    /// Runs the fake on a free loopback port for `body`. A fake that cannot start fails the
    /// test that needed it: `body` never runs silently skipped.
    public func run(_ body: @escaping @Sendable (URL) async throws -> Void) async throws {
        let app = Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            guard let port = client.port, let url = URL(string: "http://127.0.0.1:\(port)/v1") else { throw FakeServerError.notStarted }
            try await body(url)
        }
    }
}

/// A local fake of an outside service that could not be started.
public enum FakeServerError: Error, CustomStringConvertible {
    case notStarted

    public var description: String { "the fake server did not start (no port)" }
}
