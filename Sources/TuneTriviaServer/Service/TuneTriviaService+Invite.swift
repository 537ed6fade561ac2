import Foundation
import JukeCore
import TuneTrivia

extension TuneTriviaService {
    /// What the sign-in page reached from an invite says: whose game it is and its title, so
    /// that a newcomer knows what they are signing in for. Nil for a code no game has, and
    /// once an address has tried too many wrong codes (the page is open to anyone, so codes
    /// cannot be found by asking it).
    func invitation(code typed: String, address: String?) async -> (host: String, title: String)? {
        let subject = "invite-page|\(address ?? "")"
        guard case .taken(let attempt) = await codeGuard.take(subject, now: clock.now()) else { return nil }
        guard let code = InviteCode.canonical(typed), let id = try? await store.sessionID(inviteCode: code),
            let game = try? await game(id)
        else { return nil }
        await codeGuard.giveBack(attempt)
        let host = game.players[game.seating.first ?? PlayerID()]?.displayName ?? "The host"
        return (host, game.settings.title)
    }

    /// Who writes the trivia, in the words the pages use: the model when an OpenAI-compatible
    /// service is configured, otherwise Juke itself from what the library knows. The pages
    /// said "AI" even with no AI configured.
    nonisolated var triviaWriter: String {
        if let ai { return "worded by \(ai.model)" }
        return "written by Juke from your library"
    }
}
