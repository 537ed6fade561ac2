import Foundation

/// Attempts per subject within a sliding window (wrong invite codes): over the limit, how
/// long to wait.
///
/// An attempt is taken before it is judged and given back when it turns out right, all in
/// one step on the actor: attempts sent at once cannot all pass a check made before any of
/// them was counted.
actor AttemptLimiter {
    /// One taken attempt, to give back.
    struct Attempt: Sendable {
        fileprivate let subject: String
        fileprivate let serial: UInt64
    }

    enum Outcome: Sendable {
        case taken(Attempt)
        /// Over the limit: the seconds until the oldest attempt leaves the window.
        case refused(retryAfter: Int)
    }

    private let limit: Int
    private let window: TimeInterval
    private var attempts: [String: [(at: Date, serial: UInt64)]] = [:]
    private var nextSerial: UInt64 = 0

    init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    func take(_ subject: String, now: Date) -> Outcome {
        let recent = (attempts[subject] ?? []).filter { now.timeIntervalSince($0.at) < window }
        if recent.count >= limit, let oldest = recent.first {
            attempts[subject] = recent
            return .refused(retryAfter: max(1, Int((window - now.timeIntervalSince(oldest.at)).rounded(.up))))
        }
        nextSerial += 1
        attempts[subject] = recent + [(now, nextSerial)]
        // Forget subjects that have gone quiet, so the table cannot grow without bound.
        if attempts.count > 10_000 { attempts = attempts.filter { $0.value.contains { now.timeIntervalSince($0.at) < window } } }
        return .taken(Attempt(subject: subject, serial: nextSerial))
    }

    /// The attempt was right (or never judged): it does not count.
    func giveBack(_ attempt: Attempt) {
        attempts[attempt.subject]?.removeAll { $0.serial == attempt.serial }
        if attempts[attempt.subject]?.isEmpty == true { attempts[attempt.subject] = nil }
    }
}
