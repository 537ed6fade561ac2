public import Foundation

/// What a streamed answer delivers, in order.
public enum StreamEvent: Sendable, Equatable {
    /// A step the service reports (searching the web, writing), for a progress line.
    case progress(String)
    case text(String)
    case source(Source)
    /// The whole text, at the end.
    case done(String)
}

extension OpenAIClient {
    /// A long text, streamed (a persona's style guide). Through the Responses API with the
    /// web search tool when `webSearch` is set; through Chat Completions' chunks when the
    /// server has no Responses API.
    public func streamText(model: String, effort: String?, instructions: String, input: String, webSearch: Bool) -> AsyncThrowingStream<
        StreamEvent, any Error
    > {
        var body: [String: Any] = ["model": model, "instructions": instructions, "input": input, "stream": true, "store": false]
        if let effort { body["reasoning"] = ["effort": effort] }
        if webSearch { body["tools"] = [["type": "web_search"]] }
        let responses = request("responses", body, stream: true)
        let chat = request(
            "chat/completions",
            ["model": model, "stream": true, "messages": [["role": "system", "content": instructions], ["role": "user", "content": input]]],
            stream: true)
        let http = self.http
        let timeout = self.timeout
        return AsyncThrowingStream { continuation in
            let work = Task {
                do {
                    let usedResponses = try await Self.pump(http.stream(responses, idleTimeout: timeout), chat: false, into: continuation)
                    if !usedResponses {
                        _ = try await Self.pump(http.stream(chat, idleTimeout: timeout), chat: true, into: continuation)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }

    /// Reads one streamed reply into `continuation`. Returns false when the server has no
    /// such endpoint (so the caller tries the other); throws the reply's error otherwise.
    static func pump(
        _ parts: AsyncThrowingStream<HTTPStreamPart, any Error>, chat: Bool, into continuation: AsyncThrowingStream<StreamEvent, any Error>.Continuation
    ) async throws -> Bool {
        var parser = ServerSentEvents()
        var status = 0
        var headers: [String: String] = [:]
        var errorBody = Data()
        var text = ""
        var sources: [Source] = []
        var finished = false
        for try await part in parts {
            switch part {
            case .head(let s, let h):
                status = s
                headers = h
                if (200..<300).contains(s) { continuation.yield(.progress("Started")) }
            case .bytes(let data):
                guard (200..<300).contains(status) else {
                    if errorBody.count < 64 * 1024 { errorBody.append(data) }
                    continue
                }
                for event in parser.feed(data) {
                    if chat {
                        if event.data == "[DONE]" {
                            finished = true
                            continue
                        }
                        if let delta = ChatStream.delta(event.data) {
                            text += delta
                            continuation.yield(.text(delta))
                        }
                    } else {
                        switch try ResponsesStream.read(event) {
                        case .progress(let p): continuation.yield(.progress(p))
                        case .text(let t):
                            text += t
                            continuation.yield(.text(t))
                        case .source(let s):
                            if !sources.contains(s) {
                                sources.append(s)
                                continuation.yield(.source(s))
                            }
                        case .completed(let final):
                            for s in final where !sources.contains(s) {
                                sources.append(s)
                                continuation.yield(.source(s))
                            }
                            finished = true
                        case .ignored: continue
                        }
                    }
                }
            }
        }
        if !(200..<300).contains(status) {
            let error = OpenAIClient.error(from: HTTPReply(status: status, headers: headers, body: errorBody))
            if case .status(let code, let message) = error, !chat, lacksEndpoint(code, message) { return false }
            throw error
        }
        guard finished || !text.isEmpty else { throw OpenAIError.malformed("the stream ended before the answer") }
        continuation.yield(.done(text))
        return true
    }
}

/// The Responses API's streaming events that matter to a reader.
enum ResponsesStream {
    enum Read {
        case progress(String)
        case text(String)
        case source(Source)
        case completed([Source])
        case ignored
    }

    static func read(_ event: ServerSentEvents.Event) throws(OpenAIError) -> Read {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any] else { return .ignored }
        let type = (object["type"] as? String) ?? event.type
        switch type {
        case "response.output_text.delta":
            return .text(object["delta"] as? String ?? "")
        case "response.output_text.annotation.added":
            return (object["annotation"] as? [String: Any]).flatMap(Source.init).map(Read.source) ?? .ignored
        case "response.web_search_call.in_progress", "response.web_search_call.searching":
            return .progress("Searching the web…")
        case "response.web_search_call.completed":
            return .progress("Read search results")
        case "response.reasoning_summary_text.delta", "response.reasoning.delta":
            return .progress("Thinking…")
        case "response.completed":
            return .completed((object["response"] as? [String: Any]).map(ResponsesWire.sources) ?? [])
        case "response.failed", "response.incomplete":
            let response = object["response"] as? [String: Any]
            let message =
                ((response?["error"] as? [String: Any])?["message"] as? String)
                ?? ((response?["incomplete_details"] as? [String: Any])?["reason"] as? String) ?? type
            throw .malformed(message)
        case "error":
            let message = (object["message"] as? String) ?? ((object["error"] as? [String: Any])?["message"] as? String) ?? "stream error"
            let code = (object["code"] as? String) ?? ((object["error"] as? [String: Any])?["code"] as? String)
            if code == "insufficient_quota" { throw .quota(message) }
            if code == "rate_limit_exceeded" { throw .rateLimited(retryAfter: nil) }
            throw .status(500, message)
        default:
            return .ignored
        }
    }
}

/// Chat Completions' streaming chunks.
enum ChatStream {
    static func delta(_ data: String) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any],
            let choice = (object["choices"] as? [[String: Any]])?.first,
            let delta = choice["delta"] as? [String: Any]
        else { return nil }
        return delta["content"] as? String
    }
}
