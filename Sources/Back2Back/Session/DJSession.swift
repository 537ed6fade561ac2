public import Foundation
public import JukeCore

/// A back-to-back session: people and the AI take turns choosing what plays next.
///
/// A value with no I/O: `apply(_:at:)` takes what happened (a pick, a song ending, the AI's
/// answer) and returns what the caller must do (play, ask the AI). Everything the seed's
/// turn and queue rules say lives in `SessionRules.swift`.
public struct DJSession: Sendable, Codable, Equatable {
    public var id: DJSessionID
    /// Who started it. The host's device plays the music.
    public var host: UserID
    /// Everyone who takes turns with the AI, host first, in the order they joined.
    public var members: [UserID]
    public var persona: PersonaID
    public var turn: Turn
    /// The songs that played, oldest first.
    public var history: [SessionEntry]
    public var nowPlaying: SessionEntry?
    /// What plays next, in order.
    public var queue: [SessionEntry]
    /// The one AI pick being waited for; an answer to any other task is dropped.
    public var aiTask: AIRequest?
    /// The direction change on offer during a person's turn.
    public var direction: Direction?
    /// The direction change taken last (so it is not offered again while it plays).
    public var takenDirection: Direction?
    /// The request for the next direction change, while it is being made.
    public var directionTask: AITaskID?
    /// The song whose next song was already asked for near its end.
    public var nearEndOf: EntryID?
    /// Why the AI's last pick failed, for the page, until the next one succeeds.
    public var problem: String?
    /// When the person whose turn it is got it; nil on the AI's turn. (Optional in storage:
    /// sessions stored before turns were timed have none.)
    public var turnStartedAt: Date?
    /// Seconds a person has to pick before the turn passes on: nil for the default, 0 for never.
    public var turnSeconds: Int?
    /// Members with no page open: skipped when the turn comes round (nil: none).
    public var away: [UserID]?
    /// The one page that plays the music (nil until one claims it: the host's, by default).
    public var player: PlayingDevice?
    /// What the playing page runs on, when it said.
    public var playerKind: DeviceKind?
    /// How the playing page got the music, when it took over from one that went away.
    public var handover: Handover?
    /// Where the song now playing stands.
    public var playhead: Playhead?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: DJSessionID = DJSessionID(), host: UserID, persona: PersonaID, turnSeconds: Int? = nil, at now: Date) {
        self.id = id
        self.host = host
        self.members = [host]
        self.persona = persona
        self.turn = .person(host)
        self.turnStartedAt = now
        self.turnSeconds = turnSeconds
        self.history = []
        self.nowPlaying = nil
        self.queue = []
        self.aiTask = nil
        self.direction = nil
        self.directionTask = nil
        self.nearEndOf = nil
        self.problem = nil
        self.createdAt = now
        self.updatedAt = now
    }

    /// Whether the AI is choosing a song right now (the page says "AI is thinking").
    public var isAIThinking: Bool { aiTask != nil }

    /// How long a person's turn lasts before it passes on, unless the session says otherwise.
    public static let defaultTurnSeconds = 90
    /// The turn lengths a host may choose (0: turns never time out).
    public static let turnSecondsRange = 15...600

    /// A turn length as asked for: 0 (never) to 600 s, shorter than 15 s made 15 (less is no
    /// time to search); nil is the default. Anything else is refused.
    public static func turnSeconds(asked seconds: Int?) throws(RuleRefusal) -> Int? {
        guard let seconds, seconds != 0 else { return seconds }
        guard (1...turnSecondsRange.upperBound).contains(seconds) else {
            throw .invalid("turn_seconds", "A turn lasts up to 600 seconds (0: no limit).")
        }
        return max(seconds, turnSecondsRange.lowerBound)
    }

    /// Seconds a turn lasts here; 0 when turns never time out.
    public var turnLimit: Int { turnSeconds ?? Self.defaultTurnSeconds }

    /// When the current person's turn passes on if they pick nothing: nil on the AI's turn,
    /// when turns never time out, or when nobody else is here to take it.
    public var turnEndsAt: Date? {
        guard case .person(let user) = turn, turnLimit > 0, let start = turnStartedAt, nextPresent(after: user) != user else { return nil }
        return start.addingTimeInterval(Double(turnLimit))
    }

    /// Whether the member has a page open (as far as the server has told the session).
    public func isPresent(_ user: UserID) -> Bool { !(away ?? []).contains(user) }

    /// The next member after `user` in joining order who is here; `user` when nobody else is.
    public func nextPresent(after user: UserID?) -> UserID {
        guard !members.isEmpty else { return host }
        let start = user.flatMap { members.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        for step in 0..<members.count {
            let candidate = members[(start + step) % members.count]
            if isPresent(candidate) { return candidate }
        }
        return members[start % members.count]
    }

    /// Every song of the session, in playing order: history, now playing, queue.
    public var entries: [SessionEntry] { history + (nowPlaying.map { [$0] } ?? []) + queue }

    public func entry(_ id: EntryID) -> SessionEntry? { entries.first { $0.id == id } }
}

/// What the AI is asked to do.
public struct AIRequest: Sendable, Codable, Equatable {
    public enum Purpose: String, Sendable, Codable, Equatable {
        /// The AI's own turn: its pick will play.
        case turn
        /// A backup during a person's turn: it plays only if they pick nothing.
        case backup
    }

    public var task: AITaskID
    public var purpose: Purpose
    /// A direction change the pick must follow.
    public var direction: Direction?

    public init(task: AITaskID = AITaskID(), purpose: Purpose, direction: Direction? = nil) {
        self.task = task
        self.purpose = purpose
        self.direction = direction
    }
}
