/// Where a listener was in one item (a track, a chapter, an episode), and when that was
/// recorded. Devices save positions as they play; the newest wins wherever it comes from.
public struct SavedPosition: Sendable, Equatable, Codable {
    public var seconds: Double
    /// When the device recorded it, in milliseconds since 1970 (the device's clock).
    public var updatedAt: Int64

    public init(seconds: Double, updatedAt: Int64) {
        self.seconds = PositionGuard.sanitized(seconds)
        self.updatedAt = updatedAt
    }

    /// The newer of the stored position and an incoming one. On a tie the stored one stays,
    /// so a device resending what it already sent changes nothing.
    public static func newest(stored: SavedPosition?, incoming: SavedPosition) -> SavedPosition {
        guard let stored else { return incoming }
        return incoming.updatedAt > stored.updatedAt ? incoming : stored
    }

    /// A device's clock can be wrong; a time far in the future would win every merge
    /// forever. Times more than `skew` milliseconds ahead of the server are taken as now.
    public static let allowedSkew: Int64 = 5 * 60 * 1000

    public func clamped(toServerNow now: Int64) -> SavedPosition {
        updatedAt > now + Self.allowedSkew ? SavedPosition(seconds: seconds, updatedAt: now) : self
    }
}
