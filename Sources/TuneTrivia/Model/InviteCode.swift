/// The seed's 6-character invite codes of A-Z and 0-9, made from the random generator the
/// caller injects. Codes are made without O and I, which read like 0 and 1; typed codes are
/// read without case and with O as 0 and I as 1, so a code read aloud or typed on a phone
/// still works.
public enum InviteCode {
    /// What a typed code may contain.
    public static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    /// What made codes contain: 34 symbols, 1.5 billion codes.
    public static let unambiguous = alphabet.filter { $0 != "O" && $0 != "I" }
    public static let length = 6

    public static func make(using rng: inout some RandomNumberGenerator) -> String {
        String((0..<length).map { _ in unambiguous[Int.random(in: 0..<unambiguous.count, using: &rng)] })
    }

    /// The code as stored and looked up: upper case, spaces and dashes dropped, O as 0 and
    /// I as 1; nil when it cannot be a code.
    public static func canonical(_ typed: String) -> String? { canonical(typed, length: length) }

    /// `typed` read as a code of `length` characters of this alphabet (see `canonical(_:)`).
    static func canonical(_ typed: String, length: Int) -> String? {
        let cleaned = typed.uppercased().filter { $0 != " " && $0 != "-" }
        guard cleaned.count == length, cleaned.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return String(cleaned.map { $0 == "O" ? "0" : $0 == "I" ? "1" : $0 })
    }
}
