public import Foundation
public import JukeCore

/// A TuneTrivia game ("session" in the seed's API).
public struct SessionID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
/// A seat in one game: a signed-in user, or a name the host typed in host mode.
public struct PlayerID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
/// One song of a game.
public struct RoundID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
