import Back2Back
import Foundation

/// What the AI DJ is told when it picks: the persona, the set so far, what it must not play,
/// the direction asked for, what failed before, and the library songs it can choose from.
enum PickPrompt {
    static let schema = """
        {"type":"object","additionalProperties":false,"required":["artist","title","album","rationale"],
         "properties":{"artist":{"type":"string"},"title":{"type":"string"},"album":{"type":"string"},
         "rationale":{"type":"string","description":"One or two sentences on why this song, now."}}}
        """

    static func instructions(_ persona: Persona) -> String {
        """
        You are a DJ playing back to back with a person: you take turns choosing the next song. \
        You play in the style of this persona, inspired by it, never impersonating anyone:
        Name: \(persona.name)
        \(persona.description)
        \(persona.styleGuide)

        Choose ONE song from the library list you are given; name its artist and title exactly as listed. \
        Avoid repetition, prefer surprises that still fit the set, and explain your pick in one or two sentences.
        """
    }

    static func input(_ context: PickContext, choices: [PersonaDJ.Pick], failed: [String]) -> String {
        var out = "The set so far, oldest first:\n"
        let recent = context.recent.suffix(15)
        out += recent.isEmpty ? "(nothing yet: you open the set)\n" : recent.map { "- \(line($0))" }.joined(separator: "\n") + "\n"
        if let direction = context.request.direction {
            out += "\nThe person asked for a change of direction: \(direction.prompt)\n"
        }
        let avoid = context.memory.prefix(60).map { "- \($0.artist) - \($0.title)" }
        if !avoid.isEmpty { out += "\nYou played these in the last 24 hours; do not play them again:\n" + avoid.joined(separator: "\n") + "\n" }
        if !failed.isEmpty {
            out += "\nThese earlier answers could not be used; choose differently:\n" + failed.map { "- \($0)" }.joined(separator: "\n") + "\n"
        }
        out += "\nThe library songs you can choose from:\n" + choices.map { "- \(line($0.song))" }.joined(separator: "\n")
        return out
    }

    static func line(_ song: Song) -> String {
        var text = "\(song.artist) - \(song.title)"
        var facts: [String] = []
        if !song.album.isEmpty { facts.append(song.album) }
        if let year = song.year { facts.append(String(year)) }
        if let genre = song.genre, !genre.isEmpty { facts.append(genre) }
        if let bpm = song.tempo, bpm.isFinite { facts.append("\(Int(bpm.rounded())) BPM") }
        if !facts.isEmpty { text += " (\(facts.joined(separator: ", ")))" }
        return text
    }

    struct Reply: Equatable {
        let artist: String
        let title: String
        let album: String?
        let rationale: String
    }

    /// The reply, if it is the JSON asked for with a non-empty artist and title.
    static func parse(_ text: String) -> Reply? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
            let artist = (object["artist"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !artist.isEmpty,
            let title = (object["title"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty
        else { return nil }
        let album = (object["album"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        let rationale = (object["rationale"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return Reply(
            artist: String(artist.prefix(200)), title: String(title.prefix(300)), album: album.map { String($0.prefix(300)) },
            rationale: rationale.isEmpty ? "The AI's pick." : rationale)
    }
}

/// What the AI is told when it proposes a direction change (the seed's dramatic contrasts).
enum DirectionPrompt {
    static let schema = """
        {"type":"object","additionalProperties":false,"required":["direction_prompt","button_label"],
         "properties":{"direction_prompt":{"type":"string"},"button_label":{"type":"string","description":"2 to 4 words"}}}
        """

    static let instructions = """
        You suggest a change of direction for a DJ set. Find the set's dominant patterns (region, era, \
        tempo, genre, mood, production style) and propose a DRAMATIC contrast, not a small variation: \
        if the set is all New Orleans funk, suggest West Coast psychedelia rather than Southern soul. \
        Reply with a direction_prompt of one or two sentences of guidance for choosing the next song, and \
        a button_label of two to four words for a button ("West Coast vibes", "60s garage rock").
        """

    static func input(_ recent: [Song], avoiding: [Direction] = [], persona: Persona) -> String {
        let current = avoiding.compactMap { $0.label.isEmpty ? $0.towardGenre : $0.label }
        return "The DJ persona: \(persona.name).\nThe set so far, oldest first:\n"
            + recent.suffix(12).map { "- \(PickPrompt.line($0))" }.joined(separator: "\n")
            + (current.isEmpty ? "" : "\nThe set already goes this way; propose something else: \(current.joined(separator: ", ")).")
    }

    static func parse(_ text: String) -> Direction? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
            let prompt = (object["direction_prompt"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !prompt.isEmpty,
            let label = (object["button_label"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), Direction.isUsableLabel(label)
        else { return nil }
        return Direction(label: label, prompt: String(prompt.prefix(500)))
    }
}
