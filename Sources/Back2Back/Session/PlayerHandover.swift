public import Foundation
public import JukeCore

/// What kind of device a page runs on, as the page says: so the others read "Now playing on
/// Ben's phone" rather than a device id.
public enum DeviceKind: String, Sendable, Codable, Equatable, CaseIterable {
    case phone, tablet, computer
}

/// A page with the session open right now (a live connection), since when, on what.
public struct PresentPage: Sendable, Equatable {
    public var device: PlayingDevice
    public var since: Date
    public var kind: DeviceKind?

    public init(device: PlayingDevice, since: Date, kind: DeviceKind? = nil) {
        self.device = device
        self.since = since
        self.kind = kind
    }
}

/// The music moved on its own: the page that played went away and another present page took
/// over by the session's rule, so every page can say where it plays now and why.
public struct Handover: Sendable, Codable, Equatable {
    /// The page that went away.
    public var from: PlayingDevice
    public var fromKind: DeviceKind?
    public var at: Date

    public init(from: PlayingDevice, fromKind: DeviceKind?, at: Date) {
        self.from = from
        self.fromKind = fromKind
        self.at = at
    }
}

extension DJSession {
    /// Who carries on when the playing page goes: among the pages still open, the host's (the
    /// one open longest), else the page of the member present longest. Nil when no other
    /// member's page is open: the song then waits for someone to press Play here.
    public func successor(to leaving: PlayingDevice, among present: [PresentPage]) -> PresentPage? {
        let candidates = present.filter { $0.device != leaving && members.contains($0.device.user) }
            .sorted { ($0.since, $0.device.user.description, $0.device.device) < ($1.since, $1.device.user.description, $1.device.device) }
        return candidates.first { $0.device.user == host } ?? candidates.first
    }
}
