/// Writes ID3v2.4 tags (UTF-8 text frames, APIC, COMM). Used for the demo library and
/// for test fixtures; Juke never rewrites a user's files.
public struct ID3v2Writer: Sendable {
    public var frames: [(id: String, body: [UInt8])] = []

    public init() {}

    public mutating func text(_ id: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        frames.append((id, [3] + Array(value.utf8)))
    }

    public mutating func comment(_ value: String, language: String = "eng") {
        frames.append(("COMM", [3] + Array(language.utf8.prefix(3)) + [0] + Array(value.utf8)))
    }

    public mutating func userText(_ description: String, _ value: String) {
        frames.append(("TXXX", [3] + Array(description.utf8) + [0] + Array(value.utf8)))
    }

    public mutating func picture(mimeType: String, data: [UInt8], frontCover: Bool = true) {
        frames.append(("APIC", [3] + Array(mimeType.utf8) + [0, frontCover ? 3 : 0, 0] + data))
    }

    /// The complete tag, with `padding` zero bytes after the frames.
    public func encode(padding: Int = 0) -> [UInt8] {
        var body: [UInt8] = []
        for frame in frames {
            body += Array(frame.id.utf8.prefix(4))
            body += Self.syncsafe(frame.body.count)
            body += [0, 0]
            body += frame.body
        }
        body += [UInt8](repeating: 0, count: padding)
        return Array("ID3".utf8) + [4, 0, 0] + Self.syncsafe(body.count) + body
    }

    static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F), UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F)]
    }
}
