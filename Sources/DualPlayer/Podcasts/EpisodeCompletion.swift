/// When an episode counts as heard: played to its end, or to within a few seconds of it. The
/// last seconds are often silence or a sign-off, a feed's duration can be a second off the
/// file's, and a player paused there (or a position saved a moment before the end) used to
/// leave an episode unplayed with "0:00 left".
public enum EpisodeCompletion {
    /// The most of an episode's end that may go unheard: 5 seconds, or a twentieth of a
    /// short episode (a 20-second clip is not heard after 15 seconds), and never under 1 s.
    public static func margin(duration: Double) -> Double {
        min(5, max(1, duration / 20))
    }

    /// True when `position` reaches the end of an episode `duration` long, give or take the
    /// margin. An unknown, broken or zero duration says nothing (the player's end says it).
    public static func isHeard(position: Double, duration: Double?) -> Bool {
        guard let duration, duration.isFinite, duration > 0 else { return false }
        let at = PositionGuard.sanitized(position)
        return at > 0 && duration - at <= margin(duration: duration)
    }
}
