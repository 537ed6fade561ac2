/// Something RunBeat says to the runner. The page turns it into words (speech synthesis over
/// ducked music); the words are the page's, so they can be translated there.
public enum Cue: Sendable, Equatable, Codable {
    /// Free training: the runner's heart moved into another zone.
    case zone(zone: Int, bpm: Int)
    /// An interval with a target: below it (speed up), in it, above it (ease off).
    case target(TargetState, bpm: Int, low: Int, high: Int)
    /// A phase began: which, how long, and for work intervals which of how many.
    case phase(kind: PhaseKind, seconds: Double?, interval: Int?, of: Int?)
    /// The strap has sent nothing for a while.
    case strapSilent
    /// Samples again after a silence.
    case strapBack
    /// The plan is done (or the runner ended it).
    case finished
}

public enum TargetState: String, Sendable, Equatable, Codable {
    case below, inRange = "in_range", above
}
