/// A public-domain tune as Juke stores it: notes in a compact text form and the facts
/// about the composition that carry over into the tags (and into trivia).
public struct DemoPiece: Sendable {
    public let title: String
    /// The composer, or "Traditional".
    public let composer: String
    public let year: Int
    public let genre: String
    public let album: String
    /// A true sentence about the piece, written into the tags' comment.
    public let fact: String
    /// Beats per minute.
    public let tempo: Double
    public let instrument: Instrument
    /// Space-separated notes: pitch and octave ("C#5", "Bb3", "R" for a rest), then an
    /// optional ":beats" (default 1).
    public let notes: String
}

public enum Instrument: String, Sendable, CaseIterable {
    case piano, strings, flute, organ, musicBox, brass, accordion
}

/// One parsed note: a MIDI pitch (nil for a rest) and its length in beats.
struct Note: Equatable {
    let midi: Int?
    let beats: Double
}

enum MelodyParser {
    struct ParseError: Error, CustomStringConvertible {
        let token: String
        var description: String { "cannot read note '\(token)'" }
    }

    static func parse(_ text: String) throws -> [Note] {
        try text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "|" }).map { token in
            let parts = token.split(separator: ":", maxSplits: 1)
            let beats = parts.count > 1 ? Double(parts[1]) : 1
            guard let beats, beats > 0, let pitch = parts.first else { throw ParseError(token: String(token)) }
            if pitch == "R" { return Note(midi: nil, beats: beats) }
            guard let midi = midiNumber(pitch) else { throw ParseError(token: String(token)) }
            return Note(midi: midi, beats: beats)
        }
    }

    /// "C4" is 60, "A4" is 69.
    static func midiNumber(_ pitch: Substring) -> Int? {
        var chars = Array(pitch)
        guard let letter = chars.first else { return nil }
        let base: [Character: Int] = ["C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11]
        guard var semitone = base[letter] else { return nil }
        chars.removeFirst()
        while let c = chars.first, c == "#" || c == "b" {
            semitone += c == "#" ? 1 : -1
            chars.removeFirst()
        }
        guard let octave = Int(String(chars)), (0...8).contains(octave) else { return nil }
        return (octave + 1) * 12 + semitone
    }
}
