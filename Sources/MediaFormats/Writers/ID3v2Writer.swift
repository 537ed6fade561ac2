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

    /// USLT: a song's words, unsynced.
    public mutating func lyrics(_ text: String, language: String = "eng") {
        frames.append(("USLT", [3] + Array(language.utf8.prefix(3)) + [0] + Array(text.utf8)))
    }

    /// SYLT: a song's words, each line with its start in milliseconds (time stamp format 2,
    /// content type 1: lyrics).
    public mutating func syncedLyrics(_ lines: [(millis: Int, text: String)], language: String = "eng") {
        var body: [UInt8] = [3] + Array(language.utf8.prefix(3)) + [2, 1, 0]
        for line in lines { body += Array(line.text.utf8) + [0] + Self.bigEndian(UInt32(clamping: line.millis)) }
        frames.append(("SYLT", body))
    }

    public mutating func userText(_ description: String, _ value: String) {
        frames.append(("TXXX", [3] + Array(description.utf8) + [0] + Array(value.utf8)))
    }

    public mutating func picture(mimeType: String, data: [UInt8], frontCover: Bool = true) {
        frames.append(("APIC", [3] + Array(mimeType.utf8) + [0, frontCover ? 3 : 0, 0] + data))
    }

    /// A CHAP frame (ID3v2 Chapter Frame Addendum) with its title as an embedded TIT2.
    public mutating func chapter(id: String, startMilliseconds: UInt32, endMilliseconds: UInt32, title: String?) {
        var body = Array(id.utf8) + [0]
        for value in [startMilliseconds, endMilliseconds, UInt32.max, UInt32.max] { body += Self.bigEndian(value) }
        if let title {
            let text: [UInt8] = [3] + Array(title.utf8)
            body += Array("TIT2".utf8) + Self.syncsafe(text.count) + [0, 0] + text
        }
        frames.append(("CHAP", body))
    }

    /// A CTOC frame listing `children` (chapter or table element IDs) in order.
    public mutating func tableOfContents(id: String, topLevel: Bool, children: [String]) {
        var body = Array(id.utf8) + [0, (topLevel ? 0x02 : 0) | 0x01, UInt8(min(children.count, 255))]
        for child in children.prefix(255) { body += Array(child.utf8) + [0] }
        frames.append(("CTOC", body))
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

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F), UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F)]
    }
}
