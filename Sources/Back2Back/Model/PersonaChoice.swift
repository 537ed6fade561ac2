public import JukeCore

/// Which of a person's personas a new session takes.
public enum PersonaChoice: Equatable, Sendable {
    case persona(Persona)
    /// They have none left (every one deleted): the built-ins come back as theirs.
    case restoreBuiltIns

    /// The one asked for (it must be theirs), else the one chosen last, else the Rare Groove
    /// Collector, else their first.
    public static func choose(requested: PersonaID?, mine: [Persona], last: PersonaID?) throws(RuleRefusal) -> PersonaChoice {
        if let requested {
            guard let persona = mine.first(where: { $0.id == requested }) else { throw .notFound("No such persona of yours.") }
            return .persona(persona)
        }
        if let last, let persona = mine.first(where: { $0.id == last }) { return .persona(persona) }
        if let persona = mine.first(where: { $0.name == "Rare Groove Collector" }) ?? mine.first { return .persona(persona) }
        return .restoreBuiltIns
    }
}
