import Foundation

/// Juke's own direction changes, with no AI: finds the session's dominant pattern (its most
/// played genre and era) and proposes the library's most dramatic contrast to it, with a
/// two-to-four-word label for the button.
public struct DirectionPlanner: Sendable {
    /// How many recent songs make the pattern.
    static let span = 6

    public init() {}

    public func suggest(after recent: [Song], library: [Song], using generator: inout some RandomNumberGenerator) -> Direction? {
        let window = Array(recent.suffix(Self.span))
        guard !window.isEmpty else { return nil }
        let dominant = Self.dominantGenre(window)
        let dominantYear = Self.median(window.compactMap(\.year))
        // The library's genres, each with its typical year.
        var byGenre: [String: (name: String, years: [Int], count: Int)] = [:]
        for song in library {
            guard let genre = song.genre?.trimmingCharacters(in: .whitespaces), !genre.isEmpty else { continue }
            let key = GenreText.fold(genre)
            if let dominant, key == GenreText.fold(dominant) { continue }
            var entry = byGenre[key] ?? (genre, [], 0)
            entry.count += 1
            if let year = song.year { entry.years.append(year) }
            byGenre[key] = entry
        }
        // The contrast: the genre farthest away in time, among those with enough songs to
        // play a few; a little chance breaks near-ties so the label is not always the same.
        let candidates = byGenre.values.filter { $0.count >= 2 }.sorted { $0.name < $1.name }
        let scored = candidates.map { candidate -> (Double, String, Int?) in
            let year = Self.median(candidate.years)
            var distance = 0.0
            if let year, let dominantYear { distance = Double(abs(year - dominantYear)) / 50 }
            return (distance + Double.random(in: 0..<0.5, using: &generator), candidate.name, year)
        }
        if let (_, genre, year) = scored.max(by: { $0.0 < $1.0 }) {
            let short = genre.split(separator: " ").prefix(2).joined(separator: " ")
            let labels = ["Switch to \(short)", "\(short) detour", "Into \(short) territory"].filter(Direction.isUsableLabel)
            let label = labels.isEmpty ? "Change it up" : labels[Int.random(in: 0..<labels.count, using: &generator)]
            var prompt = "Break away from the session's pattern"
            if let dominant { prompt += " of \(dominant)" }
            if let dominantYear { prompt += " around \(Era.name(of: dominantYear))" }
            prompt += ": play \(genre)"
            if let year { prompt += " from around \(Era.name(of: year))" }
            prompt += ", a dramatic contrast in era and sound."
            return Direction(label: label, prompt: prompt, towardGenre: genre, awayFromGenre: dominant)
        }
        // One genre only: contrast by era instead.
        guard let dominantYear else { return nil }
        let years = library.compactMap(\.year)
        guard let far = years.max(by: { abs($0 - dominantYear) < abs($1 - dominantYear) }), abs(far - dominantYear) >= 30 else { return nil }
        let era = far < 1900 ? (far / 100 * 100)...(far / 100 * 100 + 99) : (far / 10 * 10)...(far / 10 * 10 + 9)
        let label = far < dominantYear ? "Back to \(Era.name(of: far))" : "Forward to \(Era.name(of: far))"
        return Direction(
            label: label, prompt: "Leave \(Era.name(of: dominantYear)) behind and play something from \(Era.name(of: far)).",
            towardYears: era)
    }

    /// The most played genre of `songs`; a tie goes to the most recent.
    static func dominantGenre(_ songs: [Song]) -> String? {
        var counts: [String: (name: String, count: Int, last: Int)] = [:]
        for (index, song) in songs.enumerated() {
            guard let genre = song.genre, !genre.isEmpty else { continue }
            let key = GenreText.fold(genre)
            let count = (counts[key]?.count ?? 0) + 1
            counts[key] = (genre, count, index)
        }
        return counts.values.max { ($0.count, $0.last) < ($1.count, $1.last) }?.name
    }

    static func median(_ values: [Int]) -> Int? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[values.count / 2]
    }
}
