public import Foundation
public import JukeCore

/// What can happen to a session: people's commands, the player's reports and the AI's answers.
public enum SessionEvent: Sendable, Equatable {
    /// A person picks the next song on their turn.
    case pick(Song, by: UserID)
    /// The AI starts the session instead of a person.
    case letAIStart(by: UserID)
    /// The AI answered a pick request; `followedDirection` is false when the pick ignores the
    /// direction asked for (Juke's own DJ covering for the AI), so it does not wear its label.
    case aiPicked(AITaskID, Song, rationale: String, followedDirection: Bool = true)
    /// The AI (and Juke's own picker after it) found nothing playable.
    case aiFailed(AITaskID, reason: String)
    /// The player reached `fraction` (0...1) of the song now playing. Only the playing device's
    /// reports count (`from`: nil for a session that has none yet).
    case progress(EntryID, fraction: Double, from: PlayingDevice? = nil)
    /// The song now playing came to its end. Reports for any other song, or from a device that
    /// is not the one playing, are ignored, so several devices may report the same end.
    case finished(EntryID, from: PlayingDevice? = nil)
    /// A page takes over the playing ("Play here"): the music moves to it. `kind`: what the
    /// page runs on, as it says.
    case claimPlayer(PlayingDevice, kind: DeviceKind? = nil)
    /// The playing page went away (its last live connection closed). Another member's page
    /// among `present` (the pages open now) carries on at once, by `successor(to:among:)`,
    /// from where the song was; with none, nothing plays until a page takes over, and the song
    /// waits where that page last said it was.
    case playerLeft(PlayingDevice, present: [PresentPage] = [])
    /// The song now playing was sought or paused: by the playing device (what it did), or by
    /// the host from any page (the playing device follows).
    case movePlayhead(EntryID, position: Double, paused: Bool, by: PlayingDevice)
    /// Skip what is playing; the next queued song plays.
    case skip(by: UserID)
    /// Tap a queued song: it plays now, and the songs before it are passed over.
    case skipTo(EntryID, by: UserID)
    /// A suggested direction change arrived.
    case directionSuggested(AITaskID, Direction)
    /// The direction suggestion could not be made.
    case directionFailed(AITaskID)
    /// The person whose turn it is takes the suggested direction.
    case takeDirection(by: UserID)
    case join(UserID)
    case leave(UserID)
    /// The server's turn timer: the person's turn that began at `startedAt` has run out.
    case turnExpired(UserID, startedAt: Date)
    /// The host (or the person whose turn it is) passes the turn to the next person.
    case passTurn(by: UserID)
    /// Whether a member has the session open anywhere (the server's live connections).
    case presence(UserID, online: Bool)
    /// What the AI could not pick before may be pickable now (the persona's song memory was
    /// cleared): a session left waiting by a failed pick asks again.
    case retryAI
    case changePersona(PersonaID, by: UserID)
}

/// What the caller must do after an event.
public enum SessionAction: Sendable, Equatable {
    /// Ask the AI (or Juke's own picker) for a song; answer with `.aiPicked` or `.aiFailed`
    /// carrying the request's task.
    case requestPick(AIRequest)
    /// The song now playing is near its end and nothing is queued: answer the pending
    /// request at once, with Juke's own picker if the AI is not done.
    case hurry(AITaskID)
    /// Ask for a direction suggestion; answer with `.directionSuggested` or `.directionFailed`.
    case requestDirection(AITaskID)
    /// The player starts this entry now.
    case play(SessionEntry)
    /// Load this entry so it starts without a gap (the song now playing is at 95%).
    case preload(SessionEntry)
    /// Keep this AI pick, which has started playing, in the persona's song memory.
    case remember(Song, persona: PersonaID)
}

/// Why a session refused an event: the platform's refusal, which the server maps to HTTP.
public typealias SessionError = RuleRefusal
