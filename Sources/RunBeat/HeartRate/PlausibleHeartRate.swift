/// The heart rates RunBeat believes: 30 to 240 bpm, the same bounds a person's zones may have.
/// A value outside them is a strap without contact, a byte flipped in a damaged file or a
/// device's "no reading" marker (0, 255), never a heart; live samples and imported files are
/// held to the same rule, so one workout never counts what the other would drop.
public enum PlausibleHeartRate {
    public static let range = HeartRateZones.limits

    public static func contains(_ bpm: Int) -> Bool { range.contains(bpm) }
}
