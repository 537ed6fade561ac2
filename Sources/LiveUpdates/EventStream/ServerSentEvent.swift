public import NIOCore

/// One message of a `text/event-stream` response, framed as the HTML standard reads it, so
/// that every app's event routes write the same wire: an optional `event:` name, the data
/// with each of its lines in a `data:` field of its own (a browser joins them again with
/// newlines; a newline inside one field would end it), or a comment, which a browser
/// ignores and which keeps an idle connection open.
public enum ServerSentEvent: Sendable, Equatable {
    case message(event: String?, data: String)
    case comment(String)

    /// A named event with its data.
    public static func event(_ name: String, data: String) -> ServerSentEvent { .message(event: name, data: data) }

    /// The comment that keeps a quiet stream's connection open.
    public static let keepAlive = ServerSentEvent.comment("keep-alive")

    /// The message's text, ended by the blank line that dispatches it.
    public var text: String {
        switch self {
        case .message(let event, let data):
            var out = ""
            if let event { out += "event: \(Self.oneLine(event))\n" }
            for line in Self.lines(data) { out += "data: \(line)\n" }
            return out + "\n"
        case .comment(let text):
            return Self.lines(text).map { ": \($0)\n" }.joined() + "\n"
        }
    }

    /// The message's bytes, for a response body's writer.
    public var buffer: ByteBuffer { ByteBuffer(string: text) }

    /// Lines split at CRLF, CR or LF, as the standard reads them.
    static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    }

    /// A field that must stay on one line: line breaks become spaces.
    static func oneLine(_ text: String) -> String { lines(text).joined(separator: " ") }
}
