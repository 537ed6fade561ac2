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
    /// The request for the next direction change, while it is being made.
    public var directionTask: AITaskID?
    /// The song whose next song was already asked for near its end.
    public var nearEndOf: EntryID?
    /// Why the AI's last pick failed, for the page, until the next one succeeds.
    public var problem: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: DJSessionID = DJSessionID(), host: UserID, persona: PersonaID, at now: Date) {
        self.id = id
        self.host = host
        self.members = [host]
        self.persona = persona
        self.turn = .person(host)
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
