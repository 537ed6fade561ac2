/// How far the skip buttons jump. Speech skips as podcast players do: back 15 s to catch a
/// missed sentence, forward 30 s past an advert. Music's buttons are previous and next track.
public enum SkipIntervals {
    public static let speechBack = 15.0
    public static let speechForward = 30.0
}
