/// Whether speech is talking right now, judged from its loudness: the rule that lets ducked
/// music come back between sentences rather than only when speech is paused.
///
/// Fed the speech's level every few tens of milliseconds. Talking starts the moment the level
/// rises above the threshold (so the first word is never under full music); a gap starts only
/// once the level has stayed below it for `sentenceGap`, which word gaps (about 0.1-0.2 s) do
/// not reach and the pause after a sentence (0.3 s and more) does. The threshold follows the
/// speech: `belowPeak` under its recent peak (a quiet narrator and a loud one both work), and
/// never under `silence`.
public struct SpeechActivity: Sendable, Equatable {
    public static let sentenceGap = 0.3
    public static let belowPeak = 20.0
    public static let silence = -55.0
    /// How fast the remembered peak falls, in dB per second, so a loud passage does not make
    /// a quiet one look like silence for long.
    public static let peakDecay = 6.0

    public private(set) var talking = false
    private var peak = -30.0
    private var quietSince: Double?
    private var lastTime: Double?

    public init() {}

    /// The threshold now: below it is a pause.
    public var threshold: Double { max(Self.silence, peak - Self.belowPeak) }

    /// One level reading (dBFS, -infinity for digital silence) at `time` seconds.
    /// Returns whether speech is talking.
    @discardableResult
    public mutating func sample(time: Double, level: Double) -> Bool {
        guard time.isFinite else { return talking }
        let level = level.isNaN ? -.infinity : min(level, 0)
        let elapsed = lastTime.map { max(0, time - $0) } ?? 0
        lastTime = time
        peak = max(level, peak - Self.peakDecay * elapsed, Self.silence + Self.belowPeak)
        if level > threshold {
            talking = true
            quietSince = nil
        } else {
            let since = quietSince ?? time
            quietSince = since
            if time - since >= Self.sentenceGap - 1e-6 { talking = false }  // readings are timed to the millisecond at best
        }
        return talking
    }

    /// Speech stopped or its source changed: start again, quiet.
    public mutating func reset() { self = SpeechActivity() }
}
