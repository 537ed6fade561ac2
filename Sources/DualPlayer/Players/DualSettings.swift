import JukeCore

/// Everything an account sets on Dual Player: each player's sound, and ducking.
public struct DualSettings: Sendable, Equatable, Codable {
    public var music: PlayerSettings
    public var speech: PlayerSettings
    public var ducking: Ducking

    public init(music: PlayerSettings, speech: PlayerSettings, ducking: Ducking) {
        self.music = music
        self.speech = speech
        self.ducking = ducking
    }

    public static let defaults = DualSettings(music: .defaults(for: .music), speech: .defaults(for: .speech), ducking: .off)

    public func validated() throws(RuleRefusal) -> DualSettings {
        _ = try music.validated()
        _ = try speech.validated()
        guard ducking.level.isFinite, (0...1).contains(ducking.level) else { throw .invalid("ducking.level", "the ducking level must be between 0 and 1") }
        return self
    }
}
