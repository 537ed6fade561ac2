public import Foundation
import JukeCore

public struct PodcastID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

public struct EpisodeID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// A show that at least one account subscribes to. Its feed is fetched once for all of them
/// (`schedule`), whoever subscribed.
public struct Podcast: Sendable, Equatable {
    public var id: PodcastID
    /// The feed's address (or `demoFeed` for Juke's own spoken demo).
    public var feedURL: String
    public var title: String
    public var author: String?
    public var summary: String?
    public var imageURL: String?
    public var link: String?
    public var schedule: FeedSchedule
    public var lastFetch: Date?
    public var addedAt: Date

    /// The address of Juke's own demo show, made on the server and read without a network.
    public static let demoFeed = "juke:demo-podcast"

    public init(
        id: PodcastID, feedURL: String, title: String, author: String? = nil, summary: String? = nil, imageURL: String? = nil,
        link: String? = nil, schedule: FeedSchedule, lastFetch: Date? = nil, addedAt: Date
    ) {
        self.id = id
        self.feedURL = feedURL
        self.title = title
        self.author = author
        self.summary = summary
        self.imageURL = imageURL
        self.link = link
        self.schedule = schedule
        self.lastFetch = lastFetch
        self.addedAt = addedAt
    }
}

/// One account's subscription to a show, with the show's own listening settings.
public struct Subscription: Sendable, Equatable, Codable {
    /// The speech player's speed for this show (nil: the player's own).
    public var speed: Double?
    /// Jump over silences longer than a moment while this show plays.
    public var skipSilence: Bool

    public init(speed: Double? = nil, skipSilence: Bool = false) {
        self.speed = speed
        self.skipSilence = skipSilence
    }

    public static let speeds: ClosedRange<Double> = 0.5...3

    /// A subscription's settings as a page sent them: a speed within what the player offers.
    public static func validated(speed: Double?, skipSilence: Bool) throws(RuleRefusal) -> Subscription {
        if let speed, !(speed.isFinite && speeds.contains(speed)) { throw .invalid("speed", "a show's speed is 0.5 to 3") }
        return Subscription(speed: speed, skipSilence: skipSilence)
    }
}
