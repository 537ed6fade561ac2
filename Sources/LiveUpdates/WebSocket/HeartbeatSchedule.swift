/// How a game's heartbeat is spread over time: connections are dealt round the slots as they
/// subscribe, and a tick every `tick` pings one slot's connections. Every connection is
/// pinged once per interval, and no tick pings more than a slot's share of the room: ten
/// thousand pings at once would hold up answers and a reveal as long as a reveal to ten
/// thousand takes, and slow answers were seen lining up with a sixteenth of them (and their
/// pongs) at once.
public struct HeartbeatSchedule: Sendable, Equatable {
    /// Ticks come no closer together than this.
    public static let shortestTick = Duration.milliseconds(100)

    public let slots: Int
    public let tick: Duration

    public init(interval: Duration) {
        slots = max(1, min(100_000, Int(interval / Self.shortestTick)))
        tick = interval / slots
    }

    /// The slot of the `n`th connection to subscribe (counting from 0).
    public func slot(forSubscription n: Int) -> Int { n % slots }

    /// The slot the tick after `slot`'s pings.
    public func slot(after slot: Int) -> Int { (slot + 1) % slots }
}
