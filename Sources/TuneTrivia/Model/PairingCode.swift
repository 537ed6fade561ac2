/// The one-time code that puts a game on a big screen (the presenter view): the host's
/// phone shows it, and the TV's browser opens `/tunetrivia/present/CODE` with it. Eight
/// characters of the invite codes' alphabet (34^8, 1.8 trillion codes, against a guesser
/// held to a few tries a minute for the ten minutes a code lives), so it is never mistaken
/// for a six-character invite code; typed codes are read as invite codes are (no case, O as
/// 0, I as 1, spaces and dashes dropped).
public enum PairingCode {
    public static let length = 8

    public static func make(using rng: inout some RandomNumberGenerator) -> String {
        let symbols = InviteCode.unambiguous
        return String((0..<length).map { _ in symbols[Int.random(in: 0..<symbols.count, using: &rng)] })
    }

    /// The code as stored and looked up, or nil when it cannot be one.
    public static func canonical(_ typed: String) -> String? { InviteCode.canonical(typed, length: length) }

    /// The code as people read it: two groups of four ("K7M2-QX9P").
    public static func display(_ code: String) -> String {
        code.count == length ? "\(code.prefix(4))-\(code.suffix(4))" : code
    }
}
