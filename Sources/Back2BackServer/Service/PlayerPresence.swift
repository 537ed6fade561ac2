import Back2Back
import Foundation
import JukeCore
import LiveUpdates

/// The page that plays a session can go away (a closed tab, a phone that killed it): the
/// rules then hear `.playerLeft`, the song waits where that page last reported it, and every
/// other open page is told at once (the change is pushed), so any member can press Play
/// here. Pages name themselves on their live connection (`?device_id=`), so the server knows
/// when the one that plays has none left.
extension Back2BackService {
    /// How long a playing page may be without a live connection before it counts as gone: a
    /// reload reconnects within it, and the position the closing page sends as it goes
    /// arrives before the song is paused.
    static let playerGrace: Duration = .seconds(1)

    /// A live connection from the page `device` opened.
    func pageConnected(_ id: DJSessionID, device: PlayingDevice) {
        pages[id, default: [:]][device, default: 0] += 1
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
        // Only the page that plays matters; the rules ignore any other (and one that took over).
        guard let found = try? await store.load(id), found.session.player == device else { return }
        await answer(id, .playerLeft(device))
    }

    private static func pageKey(_ id: DJSessionID, _ device: PlayingDevice) -> String { "\(id)|\(device.user)|\(device.device)" }
}
