import Foundation

/// Where an OpenAI-compatible service is, when one is configured (`--openai-base-url` and
/// `--openai-api-key`, or JUKE_OPENAI_BASE_URL and JUKE_OPENAI_API_KEY). The key stays on the
/// server: it is sent to that service and nowhere else.
public struct OpenAISettings: Sendable {
    public var baseURL: URL
    public var apiKey: String
    public var timeout: TimeInterval

    public init(baseURL: URL, apiKey: String, timeout: TimeInterval = 20) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.timeout = timeout
    }
}
