public import Foundation
public import JukeCore

/// The one device that plays a session's music: one page of one member, named by the id the
/// page made up for itself. Every other open page is a remote: it shows the true position and
/// never plays or reports the song's progress, so two tabs never echo and a guest's seek
/// cannot end a song for everyone.
public struct PlayingDevice: Sendable, Codable, Equatable, Hashable {
    public var user: UserID
    public var device: String

    public init(user: UserID, device: String) {
        self.user = user
        self.device = device
    }

    /// A page's id: 1 to 64 letters, digits and dashes.
    public static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.unicodeScalars.count)
            && id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}

/// Where the song now playing stands, by the server's clock: `position` seconds into it at
/// `at`, moving on from there unless paused. A page that reloads starts the song here.
public struct Playhead: Sendable, Codable, Equatable {
    public var entry: EntryID
    public var position: Double
    public var at: Date
    public var paused: Bool

    public init(entry: EntryID, position: Double, at: Date, paused: Bool) {
        self.entry = entry
        self.position = position
        self.at = at
        self.paused = paused
    }

    /// Seconds into the song at `now`.
    public func position(at now: Date) -> Double { paused ? position : position + max(0, now.timeIntervalSince(at)) }
}
