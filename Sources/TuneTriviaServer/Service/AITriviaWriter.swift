import Foundation
import JukePlatform
import Providers
import TuneTrivia

/// TuneTrivia's AI trivia: the seed's prompt through Chat Completions with a strict JSON
/// schema, sent by the providers' one OpenAI client. Every reply is checked (valid JSON, four distinct options, the answer among them,
/// not given away in the question); a reply that fails, an error status or a timeout is
/// reported as a failure and the caller falls back to Juke's own library question.
struct AITriviaWriter: Sendable {
    let settings: OpenAISettings
    /// The model that words the trivia (`--trivia-model`).
    let model: String
    let client: OpenAIClient

    init(settings: OpenAISettings, model: String = TuneTriviaSettings().triviaModel, http: HTTPClient) {
        self.settings = settings
        self.model = model
        // No waiting out a rate limit: a game would stall on it, and Juke's own question
        // is ready at once.
        self.client = OpenAIClient(http: http, baseURL: settings.baseURL, apiKey: settings.apiKey, timeout: settings.timeout, maxRetries: 0)
    }

    enum Failure: Error, Equatable {
        /// The service gave no answer: its error, a timeout, an unreadable or refused reply.
        case service(OpenAIError)
        /// The answer is not the trivia JSON.
        case unreadable(String)
        /// The trivia fails Juke's checks.
        case rejected(String)
    }

    func question(title: String, artist: String) async throws(Failure) -> Trivia {
        let content: String
        do {
            content = try await client.chat(request(title: title, artist: artist))
        } catch {
            throw .service(error)
        }
        return try Self.parse(content, model: model)
    }

    func request(title: String, artist: String) -> OpenAIClient.StructuredRequest {
        OpenAIClient.StructuredRequest(
            model: model, effort: nil,
            instructions: "You write fair, fun multiple-choice music trivia for a party game. Reply with JSON only.",
            input: Self.prompt(title: title, artist: artist), schemaName: "trivia", schema: Self.schema)
    }

    static let schema = """
        {"type": "object", "additionalProperties": false, "required": ["question", "answer", "options"],
         "properties": {"question": {"type": "string"}, "answer": {"type": "string"},
          "options": {"type": "array", "items": {"type": "string"}, "minItems": 4, "maxItems": 4}}}
        """

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

    /// The answer's trivia, or why it cannot be used.
    static func parse(_ content: String, model: String) throws(Failure) -> Trivia {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(content.utf8))) as? [String: Any],
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
