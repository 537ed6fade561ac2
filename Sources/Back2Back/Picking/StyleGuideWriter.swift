/// Juke's own style guide for a persona, written from its name, description and taste when no
/// AI is configured: what it plays, from when, how it moves through a set, what it avoids.
/// Plain, and honest about being a template.
public enum StyleGuideWriter {
    /// The guide in paragraphs (the page shows each as it comes).
    public static func paragraphs(for persona: Persona) -> [String] {
        var out: [String] = []
        let taste = persona.taste
        var who = "\(persona.name) is a DJ persona"
        let description = persona.description.trimmingCharacters(in: .whitespacesAndNewlines)
        who += description.isEmpty ? "." : ": \(description)"
        out.append(who)
        if !taste.genres.isEmpty {
            let first = taste.genres.prefix(3).joined(separator: ", ")
            var line = "Home ground is \(first)"
            if taste.genres.count > 3 { line += ", reaching out to \(taste.genres.dropFirst(3).prefix(5).joined(separator: ", "))" }
            out.append(line + ". Picks come from there first, and each pick should explain how it connects to what came before.")
        }
        if let years = taste.years {
            out.append(
                "The crates lean to \(years.lowerBound)–\(years.upperBound): records from those years are the default, and a pick from outside them needs a reason."
            )
        }
        if !taste.artists.isEmpty {
            out.append(
                "Touchstones: \(taste.artists.prefix(8).joined(separator: ", ")). Use them as reference points, not a playlist; the deep cuts around them matter more."
            )
        }
        let adventure =
            taste.adventure < 0.2
            ? "Stay close to the core sound; surprises are rare and small."
            : taste.adventure < 0.6
                ? "Mostly stay on course, with a left turn every few songs to keep the room listening."
                : "Take risks: jump genres and eras when the set starts to settle."
        out.append(
            "On flow: match the energy of the last song or move it one step, never repeat an artist within four songs, and break a run of three songs in one genre. \(adventure)"
        )
        out.append("Inspired by a kind of DJ, never impersonating a real person: the rationale speaks about the music, not as anyone.")
        return out
    }
}
