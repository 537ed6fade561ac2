import JukeCore

/// How one player sounds, persisted per account and player.
public struct PlayerSettings: Sendable, Equatable, Codable {
    /// Quality plays through the plain media element (the browser's pitch-preserving
    /// time-stretch); Boost routes it through Web Audio for gain, compression and voice EQ.
    public enum Mode: String, Sendable, Equatable, Codable, CaseIterable {
        case quality
        case boost
    }

    public static let speeds: ClosedRange<Double> = 0.5...3
    public static let boostGains: ClosedRange<Double> = 0...12

    /// Playback rate; pitch is preserved.
    public var speed: Double
    /// 0 (silent) to 1 (full).
    public var volume: Double
    public var mode: Mode
    /// Gain in Boost mode, in decibels.
    public var boostGainDB: Double
    /// A voice EQ in Boost mode (presence lift, rumble cut): on by default for speech only.
    public var voiceEQ: Bool

    public init(speed: Double, volume: Double, mode: Mode, boostGainDB: Double, voiceEQ: Bool) {
        self.speed = speed
        self.volume = volume
        self.mode = mode
        self.boostGainDB = boostGainDB
        self.voiceEQ = voiceEQ
    }

    public static func defaults(for kind: PlayerKind) -> PlayerSettings {
        PlayerSettings(speed: 1, volume: 1, mode: .quality, boostGainDB: 6, voiceEQ: kind == .speech)
    }

    /// These settings if every value is in range, or a refusal naming the one that is not.
    public func validated() throws(RuleRefusal) -> PlayerSettings {
        guard speed.isFinite, Self.speeds.contains(speed) else { throw .invalid("speed", "speed must be between 0.5 and 3") }
        guard volume.isFinite, (0...1).contains(volume) else { throw .invalid("volume", "volume must be between 0 and 1") }
        guard boostGainDB.isFinite, Self.boostGains.contains(boostGainDB) else { throw .invalid("boostGainDB", "boost gain must be between 0 and 12 dB") }
        return self
    }
}
