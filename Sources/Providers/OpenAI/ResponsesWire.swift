import Foundation
import JukeCore

/// Reading the Responses API's JSON: the text of a response, and its streaming events.
enum ResponsesWire {
    /// The concatenated `output_text` of a response object's message items.
    static func outputText(_ data: Data) throws(OpenAIError) -> String {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { throw .malformed("not a JSON object") }
        return try outputText(root)
    }

    static func outputText(_ response: [String: Any]) throws(OpenAIError) -> String {
        if let status = response["status"] as? String, status == "incomplete" || status == "failed" {
            let reason =
                ((response["incomplete_details"] as? [String: Any])?["reason"] as? String)
                ?? ((response["error"] as? [String: Any])?["message"] as? String) ?? status
            throw .malformed("the response is \(status): \(reason)")
        }
        guard let output = response["output"] as? [[String: Any]] else { throw .malformed("no output") }
        var text = ""
        for item in output where item["type"] as? String == "message" {
            for part in item["content"] as? [[String: Any]] ?? [] {
                switch part["type"] as? String {
                case "output_text": text += part["text"] as? String ?? ""
                case "refusal": throw .refused(part["refusal"] as? String ?? "no reason given")
                default: continue
                }
            }
        }
        guard !text.isEmpty else { throw .malformed("no output text") }
        return text
    }

    /// The web sources cited in a response's output text (url_citation annotations).
    static func sources(_ response: [String: Any]) -> [Source] {
        var out: [Source] = []
        for item in response["output"] as? [[String: Any]] ?? [] {
            for part in item["content"] as? [[String: Any]] ?? [] {
                for annotation in part["annotations"] as? [[String: Any]] ?? [] {
                    if let source = Source(annotation) { out.append(source) }
                }
            }
        }
        return out
    }
}

/// A web page a streamed answer cites.
public struct Source: Sendable, Equatable, Hashable {
    public let title: String
    public let url: String

    public init(title: String, url: String) {
        self.title = title
        self.url = url
    }

    init?(_ annotation: [String: Any]) {
        guard annotation["type"] as? String == "url_citation", let url = (annotation["url"] as? String).flatMap({ WebAddress($0) })?.text
        else { return nil }
        self.init(title: (annotation["title"] as? String) ?? url, url: url)
    }
}

/// Reading Chat Completions' JSON.
enum ChatWire {
    static func content(_ data: Data) throws(OpenAIError) -> String {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let message = (root["choices"] as? [[String: Any]])?.first?["message"] as? [String: Any]
        else { throw .malformed("not a chat completion") }
        if let refusal = message["refusal"] as? String, !refusal.isEmpty { throw .refused(refusal) }
        guard let content = message["content"] as? String, !content.isEmpty else { throw .malformed("no content") }
        return content
    }
}
