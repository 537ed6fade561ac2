import Foundation

/// The login rate limit, as a rule separate from storage: so many failures in a window, then
/// wait until the oldest failure leaves the window. Counted three ways: an account from one
/// address (5: a guesser is stopped, and the account's owner elsewhere is not), an account from
/// anywhere (50: a spread-out attack is stopped too), and an address across accounts (20).
struct LoginThrottle: Sendable {
    var window: TimeInterval = 15 * 60
    var maxFailuresPerAccountAndAddress = 5
    var maxFailuresPerAccount = 50
    var maxFailuresPerAddress = 20
    /// New accounts per address in the window: a party's twenty phones behind one router
    /// sign up, a script making seventy in twelve seconds does not (the server's
    /// `signUpsPerAddress`).
    var maxRegistrationsPerAddress = 30

    static func accountSubject(_ username: String) -> String { "user:" + username.lowercased() }
    static func addressSubject(_ address: String) -> String { "ip:" + address }
    static func registrationSubject(_ address: String) -> String { "register:ip:" + address }
    static func pairSubject(_ username: String, _ address: String) -> String { "user:" + username.lowercased() + "@ip:" + address }

    /// What one sign-in counts against, each with its limit.
    func subjects(username: String, address: String) -> [(subject: String, limit: Int)] {
        [
            (Self.pairSubject(username, address), maxFailuresPerAccountAndAddress),
            (Self.accountSubject(username), maxFailuresPerAccount),
            (Self.addressSubject(address), maxFailuresPerAddress),
        ]
    }

    /// Seconds to wait, or nil if another attempt is allowed.
    func retryAfter(failures: Int, oldest: Date?, limit: Int, now: Date) -> Int? {
        guard failures >= limit, let oldest else { return nil }
        return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }
}
