/// One account's Back2Back settings: which model and reasoning effort each AI job uses, the
/// crossfade, and the persona chosen last.
public struct DJSettings: Sendable, Codable, Equatable {
    public enum Effort: String, Sendable, Codable, CaseIterable {
        case minimal, low, medium, high
    }

    /// A model and how hard it thinks.
    public struct ModelChoice: Sendable, Codable, Equatable {
        public var model: String
        public var effort: Effort

        public init(model: String, effort: Effort) {
            self.model = model
            self.effort = effort
        }
    }

    /// Picking songs: called on every turn, so quick.
    public var songSelection: ModelChoice
    /// Direction labels: short and frequent, so the smallest model.
    public var directionChange: ModelChoice
    /// Style guides: rare and long, so the strongest model with more thought.
    public var styleGuide: ModelChoice
    /// Seconds of overlap between songs in the web player, 0 (none) to 12.
    public var crossfadeSeconds: Double
    public var persona: PersonaID?

    public init(
        songSelection: ModelChoice = ModelChoice(model: "gpt-5-mini", effort: .low),
        directionChange: ModelChoice = ModelChoice(model: "gpt-5-nano", effort: .minimal),
        styleGuide: ModelChoice = ModelChoice(model: "gpt-5", effort: .medium),
        crossfadeSeconds: Double = 4, persona: PersonaID? = nil
    ) {
        self.songSelection = songSelection
        self.directionChange = directionChange
        self.styleGuide = styleGuide
        self.crossfadeSeconds = crossfadeSeconds
        self.persona = persona
    }

    public static let crossfadeRange = 0.0...12.0

    /// The first problem with these settings as (field, message), or nil.
    public var problem: (field: String, message: String)? {
        if !crossfadeSeconds.isFinite || !Self.crossfadeRange.contains(crossfadeSeconds) {
            return ("crossfade_seconds", "The crossfade is 0 to 12 seconds.")
        }
        for (field, choice) in [("song_selection", songSelection), ("direction_change", directionChange), ("style_guide", styleGuide)] {
            if !Self.isModelName(choice.model) { return (field, "A model name is 1 to 100 letters, digits and . _ : / -.") }
        }
        return nil
    }

    /// The contract's pattern for a model name: ^[A-Za-z0-9._:/-]+$, 1 to 100 characters.
    public static func isModelName(_ name: String) -> Bool {
        (1...100).contains(name.unicodeScalars.count)
            && name.unicodeScalars.allSatisfy { s in
                ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || "._:/-".unicodeScalars.contains(s)
            }
    }
}
