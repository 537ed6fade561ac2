public import Foundation

/// Wall-clock time, injected so that expiry and rate-limit rules can be tested.
public struct WallClock: Sendable {
    public let now: @Sendable () -> Date
    public init(now: @escaping @Sendable () -> Date) { self.now = now }
    public static let system = WallClock { Date() }
}
