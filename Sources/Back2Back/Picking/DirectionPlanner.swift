import Foundation

/// Juke's own direction changes, with no AI: finds the session's dominant pattern (its most
/// played genre, its era, its pace where tempos are known) and proposes the library's most
/// dramatic contrast to it, with a two-to-four-word label for the button.
public struct DirectionPlanner: Sendable {
    /// How many recent songs make the pattern.
    static let span = 6

    public init() {}

    /// `avoiding`: where the session already goes (`DJSession.currentDirections`); nothing
    /// leading there again is proposed.
    public func suggest(
        after recent: [Song], library: [Song], avoiding: [Direction] = [], using generator: inout some RandomNumberGenerator
    ) -> Direction? {
        let window = Array(recent.suffix(Self.span))
        guard !window.isEmpty else { return nil }
        let dominant = Self.dominantGenre(window)
        let dominantYear = Self.median(window.compactMap(\.year))
        let avoidedGenres = Set(avoiding.compactMap(\.towardGenre).map(GenreText.fold))
        // The library's genres, each with its typical year.
        var byGenre: [String: (name: String, years: [Int], count: Int)] = [:]
        for song in library {
            guard let genre = song.genre?.trimmingCharacters(in: .whitespaces), !genre.isEmpty else { continue }
            let key = GenreText.fold(genre)
            if let dominant, key == GenreText.fold(dominant) { continue }
            if avoidedGenres.contains(key) { continue }
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
        let genreContrast = scored.max(by: { $0.0 < $1.0 })
        if let pace = Self.paceContrast(window, library: library, using: &generator), pace.strength > (genreContrast?.0 ?? 0),
            !avoiding.contains(where: { $0.sameWay(as: pace.direction) })
        {
            return pace.direction
        }
        if let (_, genre, year) = genreContrast {
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
        guard !avoiding.contains(where: { $0.towardYears == era || $0.label == label }) else { return nil }
        return Direction(
            label: label, prompt: "Leave \(Era.name(of: dominantYear)) behind and play something from \(Era.name(of: far)).",
            towardYears: era)
    }

    /// A change of pace: when most of the recent songs have a known tempo and the library
    /// holds enough songs far from it (30 BPM or more), slow down a fast set or speed up a
    /// slow one. Its strength is measured like the genre contrast's, so the bigger contrast wins.
    static func paceContrast(
        _ window: [Song], library: [Song], using generator: inout some RandomNumberGenerator
    ) -> (strength: Double, direction: Direction)? {
        let tempos = window.compactMap(\.tempo).filter(\.isFinite).map { Int($0.rounded()) }
        guard tempos.count * 2 >= window.count, let pace = median(tempos) else { return nil }
        let played = Set(window.map(\.track))
        let known = library.filter { !played.contains($0.track) }.compactMap(\.tempo).filter(\.isFinite)
        let slower = known.filter { $0 <= Double(pace) - 30 }
        let faster = known.filter { $0 >= Double(pace) + 30 }
        // Speed up a slow set, slow down a fast one; the side with songs enough to follow.
        let speedUp = pace < 110 ? faster.count >= 2 : slower.count < 2 && faster.count >= 2
        let target = speedUp ? faster : slower
        guard target.count >= 2, let targetPace = median(target.map { Int($0.rounded()) }) else { return nil }
        let range = speedUp ? (Double(pace) + 30)...400 : 20...(Double(pace) - 30)
        let labels = speedUp ? ["Pick up the pace", "Faster and brighter", "Turn up the tempo"] : ["Slow it down", "Bring it down", "Ease the tempo"]
        let label = labels[Int.random(in: 0..<labels.count, using: &generator)]
        let prompt =
            "The set has sat around \(pace) BPM: " + (speedUp ? "lift it" : "bring it down")
            + " to something near \(targetPace) BPM, a dramatic change of pace and mood."
        let strength = Double(abs(targetPace - pace)) / 40 + Double.random(in: 0..<0.5, using: &generator)
        return (strength, Direction(label: label, prompt: prompt, towardTempo: range))
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
