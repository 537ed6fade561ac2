public import Foundation
import JukeCore

/// When a podcast's feed is fetched, and what each fetch changes: the rules of a polite
/// podcast client, as a state machine (outcomes in, the new schedule and actions out; the
/// time and the jitter are given to it).
///
/// - Fetches ask with the last ETag and Last-Modified, so an unchanged feed costs a 304.
/// - A healthy feed is fetched every `interval` (30 minutes by default), spread by up to a
///   tenth of it so that a server's subscriptions do not all fall due in the same second.
/// - A failing host is not hammered: each failure in a row doubles the wait, up to a day, and
///   a Retry-After the host sends is honoured when longer.
/// - A permanent redirect (301, 308) or an `itunes:new-feed-url` moves the subscription; 410
///   Gone stops fetching until someone asks again.
public struct FeedSchedule: Sendable, Equatable, Codable {
    public var url: String
    public var etag: String?
    public var lastModified: String?
    /// When the feed is next due.
    public var nextFetch: Date
    /// Failures in a row (0 after any success or 304).
    public var failures: Int
    public var lastError: String?
    /// The host said the feed is gone (410): no more scheduled fetches.
    public var gone: Bool
    /// The host asked not to be asked before then (Retry-After): not even on demand.
    public var notBefore: Date?
    public var interval: TimeInterval

    public static let defaultInterval: TimeInterval = 1800
    /// The longest wait after failures.
    public static let maxBackoff: TimeInterval = 86_400
    /// The shortest wait between fetches someone asks for ("refresh now"), so a tapping
    /// finger cannot make Juke hammer a host either.
    public static let minOnDemand: TimeInterval = 10

    public init(url: String, now: Date, interval: TimeInterval = Self.defaultInterval) {
        self.url = url
        self.nextFetch = now
        self.failures = 0
        self.gone = false
        self.interval = max(60, interval)
    }

    /// What a fetch came back with.
    public enum Outcome: Sendable, Equatable {
        /// 200 with a feed: its validators, the address it was finally read from after
        /// permanent redirects (nil when none), and the feed's own `itunes:new-feed-url`.
        case fetched(etag: String?, lastModified: String?, permanentlyMovedTo: String?, newFeedURL: String?)
        case notModified
        /// 410.
        case gone
        /// Anything else: a network error, a 4xx/5xx, a document that is no feed. `retryAfter`
        /// from a 429 or 503.
        case failed(reason: String, retryAfter: TimeInterval?)
    }

    public enum Action: Sendable, Equatable {
        /// Store the feed's items (a 200 with a feed).
        case storeItems
        /// The subscription now lives at this address.
        case moved(from: String, to: String)
    }

    public func isDue(at now: Date) -> Bool { !gone && now >= nextFetch }

    /// Applies a fetch's outcome. `jitter` is a number in 0..<1 from the caller's random source.
    public mutating func apply(_ outcome: Outcome, at now: Date, jitter: Double) -> [Action] {
        let spread = interval * 0.1 * min(max(jitter, 0), 1)
        switch outcome {
        case .fetched(let etag, let lastModified, let movedTo, let newFeedURL):
            self.etag = etag
            self.lastModified = lastModified
            notBefore = nil
            failures = 0
            lastError = nil
            gone = false
            nextFetch = now.addingTimeInterval(interval + spread)
            var actions: [Action] = [.storeItems]
            // The feed's own word wins over the server's redirect: it names its future home.
            if let target = Self.webAddress(newFeedURL) ?? Self.webAddress(movedTo), target != url {
                actions.append(.moved(from: url, to: target))
                url = target
                // The validators belonged to the old address.
                self.etag = nil
                self.lastModified = nil
                nextFetch = now  // read the new home at once
            }
            return actions
        case .notModified:
            notBefore = nil
            failures = 0
            lastError = nil
            nextFetch = now.addingTimeInterval(interval + spread)
            return []
        case .gone:
            gone = true
            lastError = "The feed is gone (HTTP 410)."
            return []
        case .failed(let reason, let retryAfter):
            failures += 1
            lastError = reason
            notBefore = retryAfter.map { now.addingTimeInterval($0) }
            let backoff = min(Self.maxBackoff, interval * pow(2, Double(min(failures, 20))))
            nextFetch = now.addingTimeInterval(max(backoff, retryAfter ?? 0) + spread)
            return []
        }
    }

    /// Someone asked for the feed now: it is due at once, unless it was fetched moments ago or
    /// the host asked to be left alone for longer (Retry-After). A gone feed is tried again.
    public mutating func refreshNow(at now: Date, lastFetch: Date?) -> Bool {
        if let lastFetch, now.timeIntervalSince(lastFetch) < Self.minOnDemand { return false }
        if let notBefore, now < notBefore { return false }
        gone = false
        nextFetch = now
        return true
    }

    /// An http(s) address, or nil.
    static func webAddress(_ text: String?) -> String? {
        text.flatMap { WebAddress($0) }?.text
    }
}
