public import Foundation
public import JukeCore

/// One back-to-back DJ session: its people, its persona, what played and what is queued.
public struct DJSessionID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
/// A DJ persona (the AI's style).
public struct PersonaID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
/// One song's place in a session (the same track may come back in another session).
public struct EntryID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
/// One request to the AI (a pick or a direction). A result is taken only while its task is
/// still the current one: a request that was superseded can never leak into the session.
public struct AITaskID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
