public import JukeCore

/// Who may see a session and who may end it, and what a new session is called.
extension DJSession {
    /// Only the people in the session see it (its invite link lets others in).
    public func requireViewer(_ user: UserID) throws(RuleRefusal) {
        guard members.contains(user) else { throw .forbidden("Only the people in this session can see it; ask for its invite link.") }
    }

    /// Only the host deletes the session.
    public func requireHost(_ user: UserID) throws(RuleRefusal) {
        guard host == user else { throw .forbidden("Only the host can delete the session.") }
    }

    /// The title a new session gets: the one asked for (at most 100 characters, trimmed), or
    /// "<host> × <persona>".
    public static func title(_ requested: String?, host: String, persona: String) throws(RuleRefusal) -> String {
        let title = (requested ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard title.unicodeScalars.count <= 100 else { throw .invalid("title", "A title has at most 100 characters.") }
        return title.isEmpty ? "\(host) × \(persona)" : title
    }
}
