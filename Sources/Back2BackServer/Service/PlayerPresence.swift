import Back2Back
import Foundation
import JukeCore
import LiveUpdates

/// The page that plays a session can go away (a closed tab, a phone that killed it): the
/// rules then hear `.playerLeft` with the pages still open here, and one of them carries on
/// by the session's rule (the host's, else the member's open longest); with none, the song
/// waits where that page last reported it. Every open page is told at once (the change is
/// pushed), so each says where the music plays now. Pages name themselves on their live
/// connection (`?device_id=`, and `device_kind=` for what they run on), so the server knows
/// when the one that plays has none left, and who is left.
extension Back2BackService {
    /// How long a playing page may be without a live connection before it counts as gone: a
    /// reload reconnects within it, and the position the closing page sends as it goes
    /// arrives before the song is paused.
    static let playerGrace: Duration = .seconds(1)

    /// A live connection from the page `device` opened.
    func pageConnected(_ id: DJSessionID, device: PlayingDevice, kind: DeviceKind? = nil) {
        pages[id, default: [:]][device, default: 0] += 1
        // Open since its first connection; a reload within the grace keeps its place.
        if pageInfo[id]?[device] == nil { pageInfo[id, default: [:]][device] = PresentPage(device: device, since: clock.now(), kind: kind) }
        pageTimers.removeValue(forKey: Self.pageKey(id, device))?.cancel()
    }

    /// A live connection from the page `device` closed: with none left after the grace, and
    /// the page still the session's player, the player has left.
    func pageDisconnected(_ id: DJSessionID, device: PlayingDevice) {
        let left = (pages[id]?[device] ?? 1) - 1
        pages[id]?[device] = left > 0 ? left : nil
        if pages[id]?.isEmpty == true { pages[id] = nil }
        guard left <= 0, !stopping else { return }
        let key = Self.pageKey(id, device)
        pageTimers[key]?.cancel()
        let deadline = timers.now + Self.playerGrace
        pageTimers[key] = Task { [timers] in
            do { try await timers.sleep(until: deadline) } catch { return }
            await self.pageGone(id, device: device, key: key)
        }
    }

    private func pageGone(_ id: DJSessionID, device: PlayingDevice, key: String) async {
        pageTimers[key] = nil
        guard pages[id]?[device] == nil else { return }
        pageInfo[id]?[device] = nil
        if pageInfo[id]?.isEmpty == true { pageInfo[id] = nil }
        // Only the page that plays matters; the rules ignore any other (and one that took over).
        guard let found = try? await store.load(id), found.session.player == device else { return }
        await answer(id, .playerLeft(device, present: presentPages(id)))
    }

    /// The pages with a live connection open now (on this server), oldest first.
    func presentPages(_ id: DJSessionID) -> [PresentPage] {
        (pageInfo[id] ?? [:]).values.filter { (pages[id]?[$0.device] ?? 0) > 0 }.sorted { $0.since < $1.since }
    }

    private static func pageKey(_ id: DJSessionID, _ device: PlayingDevice) -> String { "\(id)|\(device.user)|\(device.device)" }
}
