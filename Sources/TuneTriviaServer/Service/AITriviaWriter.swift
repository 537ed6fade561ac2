import Foundation
import JukePlatform
import Providers
import TuneTrivia

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// TuneTrivia's AI trivia: the seed's prompt through Chat Completions with a strict JSON
/// schema. Every reply is checked (valid JSON, four distinct options, the answer among them,
/// not given away in the question); a reply that fails, an error status or a timeout is
/// reported as a failure and the caller falls back to Juke's own library question.
struct AITriviaWriter: Sendable {
    let settings: OpenAISettings

    enum Failure: Error, Equatable {
        case status(Int, String)
        case unreadable(String)
        case rejected(String)
        case unreachable(String)
    }

    func question(title: String, artist: String) async throws(Failure) -> Trivia {
        var request = URLRequest(url: settings.baseURL.appendingPathComponent("chat/completions"), timeoutInterval: settings.timeout)
        request.httpMethod = "POST"
        request.setValue("Bearer \(settings.apiKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try? JSONSerialization.data(withJSONObject: body(title: title, artist: artist), options: [.sortedKeys])
        let reply: HTTPReply
        do {
            reply = try await HTTPClient().send(request, timeout: settings.timeout)
        } catch {
            switch error {
            case .timeout(let seconds): throw .unreachable("no answer within \(Int(seconds)) s")
            case .unreachable(let message): throw .unreachable(message)
            }
        }
        let data = reply.body
        let status = reply.status
        guard (200..<300).contains(status) else {
            let message =
                ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])
                .flatMap { $0["error"] as? [String: Any] }?["message"] as? String
            throw .status(status, message ?? "HTTP \(status)")
        }
        return try Self.parse(data, model: settings.triviaModel)
    }

    func body(title: String, artist: String) -> [String: Any] {
        let schema: [String: Any] = [
            "type": "object", "additionalProperties": false, "required": ["question", "answer", "options"],
            "properties": [
                "question": ["type": "string"], "answer": ["type": "string"],
                "options": ["type": "array", "items": ["type": "string"], "minItems": 4, "maxItems": 4],
            ],
        ]
        return [
            "model": settings.triviaModel,
            "messages": [
                ["role": "system", "content": "You write fair, fun multiple-choice music trivia for a party game. Reply with JSON only."],
                ["role": "user", "content": Self.prompt(title: title, artist: artist)],
            ],
            "response_format": ["type": "json_schema", "json_schema": ["name": "trivia", "strict": true, "schema": schema]],
        ]
    }

    /// The seed's prompt (section 3.3), plus the two rules Juke checks anyway.
    static func prompt(title: String, artist: String) -> String {
        """
        Generate a fun music trivia question about the song "\(title)" by \(artist).
        The question should be about one of the following:
        - The year the song was released
        - The album it appeared on
        - A fun fact about the song's creation or history
        - Chart performance or awards
        - Cultural impact or appearances in media
        Give exactly four different options, one of them the answer, and do not give the answer away in the question.
        Format your response as JSON: {"question": "...", "answer": "...", "options": ["...", "...", "...", "..."]}
        """
    }

    /// The reply's trivia, or why it cannot be used.
    static func parse(_ data: Data, model: String) throws(Failure) -> Trivia {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let message = ((root["choices"] as? [[String: Any]])?.first?["message"]) as? [String: Any]
        else { throw .unreadable("not a chat completion") }
        if let refusal = message["refusal"] as? String, !refusal.isEmpty { throw .rejected("the model refused: \(refusal)") }
        guard let content = message["content"] as? String,
            let object = (try? JSONSerialization.jsonObject(with: Data(content.utf8))) as? [String: Any],
            let question = object["question"] as? String, let answer = object["answer"] as? String,
            let options = object["options"] as? [String]
        else { throw .unreadable("the reply is not the trivia JSON") }
        let clean = { (s: String) in s.trimmingCharacters(in: .whitespacesAndNewlines) }
        let trivia = Trivia(
            question: String(clean(question).prefix(300)), options: options.map { String(clean($0).prefix(120)) },
            answer: String(clean(answer).prefix(120)), source: model)
        if let problem = trivia.check() { throw .rejected(problem) }
        return trivia
    }
}
