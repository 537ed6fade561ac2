import Back2Back
import Foundation
import JukeCore
import LiveUpdates

/// An idle member must not stall a shared session. After every change the session's turn is
/// timed here: when the person's time runs out the rules hear `.turnExpired` (and ignore it
/// if the turn moved on meanwhile). Who has the session open comes from the live
/// connections: a member whose last page closed is marked away after a grace period (a
/// reload is not leaving), and the rules skip them when the turn comes round.
extension Back2BackService {
    /// How long a member may be without an open page before they count as away.
    static let awayGrace: Duration = .seconds(10)

    /// Sets the session's turn timer to its turn's end, or clears it.
    func timeTurn(_ session: DJSession) {
        turnTimers[session.id]?.cancel()
        turnTimers[session.id] = nil
        guard !stopping, let ends = session.turnEndsAt, case .person(let user) = session.turn, let started = session.turnStartedAt else { return }
        let wait = max(0, ends.timeIntervalSince(clock.now()))
        let id = session.id
        let deadline = timers.now + .milliseconds(Int(wait * 1000) + 50)
        turnTimers[id] = Task { [timers] in
            do { try await timers.sleep(until: deadline) } catch { return }
            await self.answer(id, .turnExpired(user, startedAt: started))
        }
    }

    /// A live connection of `user` to the session opened.
    func connected(_ id: DJSessionID, user: UserID) async {
        connections[id, default: [:]][user, default: 0] += 1
        awayTimers.removeValue(forKey: Self.key(id, user))?.cancel()
        if let found = try? await store.load(id), found.session.members.contains(user), !found.session.isPresent(user) {
            await answer(id, .presence(user, online: true))
        }
    }

    /// A live connection of `user` closed: with none left after the grace period, they are away.
    func disconnected(_ id: DJSessionID, user: UserID) {
        let left = (connections[id]?[user] ?? 1) - 1
        connections[id]?[user] = left > 0 ? left : nil
        if connections[id]?.isEmpty == true { connections[id] = nil }
        guard left <= 0, !stopping else { return }
        let key = Self.key(id, user)
        awayTimers[key]?.cancel()
        let deadline = timers.now + Self.awayGrace
        awayTimers[key] = Task { [timers] in
            do { try await timers.sleep(until: deadline) } catch { return }
            await self.markAway(id, user: user, key: key)
        }
    }

    private func markAway(_ id: DJSessionID, user: UserID, key: String) async {
        awayTimers[key] = nil
        guard connections[id]?[user] == nil else { return }
        await answer(id, .presence(user, online: false))
    }

    /// Another server marked someone away who has a page open here: they are back.
    func correctPresence(_ id: DJSessionID) async {
        guard let here = connections[id], !here.isEmpty, let found = try? await store.load(id) else { return }
        for user in here.keys where found.session.members.contains(user) && !found.session.isPresent(user) {
            await answer(id, .presence(user, online: true))
        }
    }

    private static func key(_ id: DJSessionID, _ user: UserID) -> String { "\(id)|\(user)" }
}
