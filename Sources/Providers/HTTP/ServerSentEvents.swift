/// An incremental parser of the server-sent events wire format (the WHATWG HTML standard's
/// "text/event-stream"): bytes in, whole events out, however the bytes were split by the
/// network. Lines end in LF, CR or CRLF; "data:" lines join with LF; a blank line ends an
/// event; lines starting with ":" are comments. Pure, so it is fuzzed and tested alone.
public struct ServerSentEvents: Sendable {
    public struct Event: Sendable, Equatable {
        public var type: String
        public var data: String
        public var id: String?

        public init(type: String = "message", data: String, id: String? = nil) {
            self.type = type
            self.data = data
            self.id = id
        }
    }

    /// The longest line kept (a hostile server could otherwise grow memory without end).
    public static let lineLimit = 4 << 20

    private var line: [UInt8] = []
    private var lastWasCR = false
    private var type = ""
    private var data: [String] = []
    private var id: String?
    private var overflow = false

    public init() {}

    /// Feeds bytes; returns the events they complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if lastWasCR {
                lastWasCR = false
                if byte == 0x0A { continue }  // CRLF: the CR ended the line already
            }
            if byte == 0x0A || byte == 0x0D {
                lastWasCR = byte == 0x0D
                if let event = endLine() { events.append(event) }
                continue
            }
            if line.count < Self.lineLimit { line.append(byte) } else { overflow = true }
        }
        return events
    }

    /// The end of the stream: an event not yet ended by a blank line is dropped, as the
    /// standard says.
    public mutating func finish() -> [Event] {
        line = []
        data = []
        return []
    }

    private mutating func endLine() -> Event? {
        defer {
            line.removeAll(keepingCapacity: true)
            overflow = false
        }
        if line.isEmpty {
            // A blank line dispatches the event, if it has data.
            defer {
                type = ""
                data = []
            }
            guard !data.isEmpty else { return nil }
            return Event(type: type.isEmpty ? "message" : type, data: data.joined(separator: "\n"), id: id)
        }
        if overflow || line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = Substring(text)
            value = ""
        }
        switch field {
        case "event": type = String(value)
        case "data": data.append(String(value))
        case "id": if !value.contains("\0") { id = String(value) }
        default: break  // "retry" and unknown fields: nothing to do for a client that does not reconnect
        }
        return nil
    }
}
