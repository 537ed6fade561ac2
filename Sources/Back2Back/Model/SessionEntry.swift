public import Foundation
public import JukeCore

/// Who chose a song.
public enum Picker: Sendable, Codable, Equatable, Hashable {
    case person(UserID)
    case ai
}

/// Whose turn it is to choose the next song.
public typealias Turn = Picker

/// Where a song stands in the session (the seed's queue states).
public enum QueueStatus: String, Sendable, Codable, Equatable {
    case playing
    case played
    /// Will play next, whatever happens: a person's pick, or the AI's pick on its own turn.
    case upNext
    /// The AI's backup during a person's turn: it plays only if they pick nothing in time,
    /// and then the turn stays with them.
    case queuedIfUserSkips
}

/// One song of a session, with who picked it, when and why.
public struct SessionEntry: Sendable, Codable, Equatable, Identifiable {
    public var id: EntryID
    public var song: Song
    public var pickedBy: Picker
    public var pickedAt: Date
    public var status: QueueStatus
    /// The AI's short reason for its pick.
    public var rationale: String?
    /// The label of the direction change this pick answered, if any.
    public var direction: String?
    public var startedAt: Date?
    /// Whether it was cut short by a skip.
    public var skipped: Bool

    public init(
        id: EntryID = EntryID(), song: Song, pickedBy: Picker, pickedAt: Date, status: QueueStatus, rationale: String? = nil,
        direction: String? = nil, startedAt: Date? = nil, skipped: Bool = false
    ) {
        self.id = id
        self.song = song
        self.pickedBy = pickedBy
        self.pickedAt = pickedAt
        self.status = status
        self.rationale = rationale
        self.direction = direction
        self.startedAt = startedAt
        self.skipped = skipped
    }
}
