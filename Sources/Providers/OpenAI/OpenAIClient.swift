public import Foundation

/// A client of OpenAI's HTTP API, or of any server that speaks it (set `baseURL`).
///
/// Structured answers go through the Responses API (`POST /responses` with a `json_schema`
/// text format); a server without it (404/405) or without structured output there (400
/// naming the format) is asked through Chat Completions with `response_format`, and one that
/// refuses that too, with the schema in the instructions. Streams (style guides) use the
/// Responses API's server-sent events, or Chat Completions' chunks as the fallback.
/// 429s are retried after Retry-After up to `maxRetries`; quota errors are not retried.
public struct OpenAIClient: Sendable {
    public let baseURL: URL
    public let apiKey: String
    /// Seconds for a whole structured answer, and between pieces of a stream.
    public var timeout: TimeInterval
    public var maxRetries: Int
    /// The longest wait for a Retry-After before giving up on a rate limit.
    public var retryCap: TimeInterval
    /// The server's one outbound client (`Platform.http`).
    let http: HTTPClient
    let sleep: @Sendable (TimeInterval) async -> Void

    public init(
        http: HTTPClient,
        baseURL: URL, apiKey: String, timeout: TimeInterval = 60, maxRetries: Int = 2, retryCap: TimeInterval = 20,
        sleep: @escaping @Sendable (TimeInterval) async -> Void = { try? await Task.sleep(for: .seconds($0)) }
    ) {
        self.http = http
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.timeout = timeout
        self.maxRetries = maxRetries
        self.retryCap = retryCap
        self.sleep = sleep
    }

    /// What a structured request asks for.
    public struct StructuredRequest: Sendable {
        public var model: String
        /// minimal, low, medium or high; nil leaves it to the model.
        public var effort: String?
        public var instructions: String
        public var input: String
        public var schemaName: String
        /// The JSON Schema of the answer, as JSON text.
        public var schema: String

        public init(model: String, effort: String?, instructions: String, input: String, schemaName: String, schema: String) {
            self.model = model
            self.effort = effort
            self.instructions = instructions
            self.input = input
            self.schemaName = schemaName
            self.schema = schema
        }
    }

    /// The model's answer: JSON text that should match the schema (the caller checks it).
    public func structured(_ request: StructuredRequest) async throws(OpenAIError) -> String {
        let schema = (try? JSONSerialization.jsonObject(with: Data(request.schema.utf8))) ?? [:]
        var body: [String: Any] = [
            "model": request.model, "instructions": request.instructions, "input": request.input, "store": false,
            "text": ["format": ["type": "json_schema", "name": request.schemaName, "schema": schema, "strict": true]],
        ]
        if let effort = request.effort { body["reasoning"] = ["effort": effort] }
        do {
            let reply = try await post("responses", body)
            return try ResponsesWire.outputText(reply)
        } catch .status(let code, let message) where Self.lacksEndpoint(code, message) || Self.lacksStructuredOutput(code, message) {
            return try await chatStructured(request, schema: schema)
        }
    }

    /// The model's answer through Chat Completions alone, for a caller whose service is
    /// described as Chat Completions (TuneTrivia's seed): one request, no Responses attempt.
    public func chat(_ request: StructuredRequest) async throws(OpenAIError) -> String {
        try await chatStructured(request, schema: (try? JSONSerialization.jsonObject(with: Data(request.schema.utf8))) ?? [:])
    }

    /// Chat Completions with `response_format`; without it if the server refuses that.
    func chatStructured(_ request: StructuredRequest, schema: Any) async throws(OpenAIError) -> String {
        var body: [String: Any] = [
            "model": request.model,
            "messages": [["role": "system", "content": request.instructions], ["role": "user", "content": request.input]],
            "response_format": ["type": "json_schema", "json_schema": ["name": request.schemaName, "schema": schema, "strict": true]],
        ]
        do {
            return try ChatWire.content(try await post("chat/completions", body))
        } catch .status(let code, let message) where Self.lacksStructuredOutput(code, message) {
            body["response_format"] = nil
            body["messages"] = [
                ["role": "system", "content": request.instructions + "\n\nReply with one JSON object only, matching this JSON Schema:\n" + request.schema],
                ["role": "user", "content": request.input],
            ]
            return try ChatWire.content(try await post("chat/completions", body))
        }
    }

    /// POSTs JSON and returns the 2xx body; retries rate limits and one server error.
    func post(_ path: String, _ body: [String: Any]) async throws(OpenAIError) -> Data {
        var attempt = 0
        while true {
            let reply = try await http.send(request(path, body), timeout: timeout, failingAs: OpenAIError.self)
            if (200..<300).contains(reply.status) { return reply.body }
            let error = Self.error(from: reply)
            attempt += 1
            switch error {
            case .rateLimited(let after) where attempt <= maxRetries:
                let wait = after ?? Double(1 << attempt)
                guard wait <= retryCap else { throw error }
                await sleep(wait)
            case .status(let code, _) where code >= 500 && attempt <= 1:
                await sleep(1)
            default:
                throw error
            }
        }
    }

    func request(_ path: String, _ body: [String: Any], stream: Bool = false) -> OutboundRequest {
        var request = OutboundRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if stream { request.setValue("text/event-stream", forHTTPHeaderField: "Accept") }
        request.httpBody = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        return request
    }

    /// An error reply in OpenAI's shape: `{"error": {"message", "type", "code"}}`.
    static func error(from reply: HTTPReply) -> OpenAIError {
        let object = (try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        let message = (error?["message"] as? String) ?? String(decoding: reply.body.prefix(300), as: UTF8.self)
        let kind = [(error?["type"] as? String), (error?["code"] as? String)].compactMap { $0 }
        switch reply.status {
        case 429:
            if kind.contains("insufficient_quota") { return .quota(message) }
            let after = RetryAfter.seconds(reply.headers["retry-after"]) ?? RetryAfter.seconds(reply.headers["retry-after-ms"], scale: 0.001)
            return .rateLimited(retryAfter: after)
        case 401, 403: return .unauthorized(message)
        case 402: return .quota(message)
        default: return .status(reply.status, message)
        }
    }

    /// The server has no such endpoint (an OpenAI-compatible server without /responses).
    static func lacksEndpoint(_ code: Int, _ message: String) -> Bool { code == 404 || code == 405 || code == 501 }

    /// The server refused the structured-output parameter.
    static func lacksStructuredOutput(_ code: Int, _ message: String) -> Bool {
        guard code == 400 || code == 422 else { return false }
        let m = message.lowercased()
        return ["json_schema", "response_format", "text.format", "structured output", "not supported", "unsupported"].contains { m.contains($0) }
    }
}
