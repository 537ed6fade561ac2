/// The seed's 6-character invite codes of A-Z and 0-9, made from the random generator the
/// caller injects. Letters that read alike (O and 0, I and 1) are kept, as the seed has
/// them, but codes are compared without case and with O/0 and I/1 treated alike, so a code
/// read aloud or typed on a phone still works.
public enum InviteCode {
    public static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    public static let length = 6

    public static func make(using rng: inout some RandomNumberGenerator) -> String {
        String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
    }

    /// The code as stored and looked up: upper case, spaces and dashes dropped, O as 0 and
    /// I as 1; nil when it cannot be a code.
    public static func canonical(_ typed: String) -> String? {
        let cleaned = typed.uppercased().filter { $0 != " " && $0 != "-" }
        guard cleaned.count == length, cleaned.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return String(cleaned.map { $0 == "O" ? "0" : $0 == "I" ? "1" : $0 })
    }
}
