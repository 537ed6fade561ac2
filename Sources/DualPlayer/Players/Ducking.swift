/// Ducking: while speech is talking, music drops to a chosen level, and comes back between
/// sentences and when speech pauses. Off by default, per account.
public struct Ducking: Sendable, Equatable, Codable {
    public var enabled: Bool
    /// Music's level while speech talks, as a fraction of its own volume.
    public var level: Double

    public static let off = Ducking(enabled: false, level: 0.3)
    /// Seconds to fade down when speech starts (quick, so the first word is heard) and back
    /// up when it stops (slower, so short pauses between words do not pump the music).
    public static let attack = 0.15
    public static let release = 0.6

    public init(enabled: Bool, level: Double) {
        self.enabled = enabled
        self.level = level
    }

    /// The gain to apply to music on top of its own volume. `speechTalking` is the speech
    /// player playing and, where its level can be heard, `SpeechActivity` saying it talks.
    public func musicGain(speechTalking: Bool) -> Double {
        enabled && speechTalking ? min(max(level, 0), 1) : 1
    }
}
