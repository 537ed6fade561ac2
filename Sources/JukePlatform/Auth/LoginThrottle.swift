import Foundation

/// The login rate limit, as a rule separate from storage: so many failures in a window,
/// per account and per address, then wait until the oldest failure leaves the window.
struct LoginThrottle: Sendable {
    var window: TimeInterval = 15 * 60
    var maxFailuresPerAccount = 5
    var maxFailuresPerAddress = 20

    static func accountSubject(_ username: String) -> String { "user:" + username.lowercased() }
    static func addressSubject(_ address: String) -> String { "ip:" + address }

    /// Seconds to wait, or nil if another attempt is allowed.
    func retryAfter(failures: Int, oldest: Date?, limit: Int, now: Date) -> Int? {
        guard failures >= limit, let oldest else { return nil }
        return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }
}
