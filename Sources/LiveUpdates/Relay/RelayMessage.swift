import Foundation

/// What one server tells the others sharing its PostgreSQL database about a change, in the
/// one payload format every app uses: "<origin> <subject> <detail>". `origin` is the sending
/// server (a receiver skips its own), `subject` what changed (a game's or a session's id),
/// `detail` the app's own words about it (a version, who must be told, "D" for deleted).
public struct RelayMessage: Sendable, Equatable {
    public let origin: UUID
    public let subject: String
    public let detail: Substring

    public init(origin: UUID, subject: String, detail: Substring) {
        self.origin = origin
        self.subject = subject
        self.detail = detail
    }

    /// The detail an app sends when the subject is gone.
    public static let deleted: Substring = "D"

    /// The start every payload about `subject` from `origin` shares; an app that cuts a long
    /// detail into several NOTIFYs (8,000 bytes each at most) puts it before each piece.
    public static func prefix(origin: UUID, subject: String) -> String { "\(origin) \(subject) " }

    public var payload: String { Self.prefix(origin: origin, subject: subject) + detail }

    /// Reads a payload back; nil for one that is not in this format.
    public init?(payload: String) {
        let words = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count == 3, let origin = UUID(uuidString: String(words[0])), !words[1].isEmpty, !words[2].isEmpty else { return nil }
        self.init(origin: origin, subject: String(words[1]), detail: words[2])
    }
}
