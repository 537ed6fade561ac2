public import Foundation
public import JukeCore

public struct WorkoutID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
public struct PlanID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
