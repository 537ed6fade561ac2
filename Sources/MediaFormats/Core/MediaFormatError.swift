/// Why a file could not be read, and where.
///
/// Every reader throws this with the byte offset of the problem so a scan report can say
/// "song.mp3: truncated at byte 4211: ID3v2 frame TIT2 declares 900 bytes, tag ends at 300".
public struct MediaFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Not a format Juke reads (or not audio at all).
        case unsupported
        /// The file ends before a structure it declares.
        case truncated
        /// A structure's fields contradict each other or the format.
        case malformed
        /// The operating system refused to open or read the file.
        case unreadable
    }

    public let kind: Kind
    public let offset: Int
    public let message: String

    public init(_ kind: Kind, at offset: Int, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    public var description: String { "\(kind.rawValue) at byte \(offset): \(message)" }
}
